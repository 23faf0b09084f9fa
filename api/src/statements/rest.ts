/**
 * The statements' routes outside the key-authenticated table: the web app's download
 * (`GET /api/quern/statements/{month}` with the session cookie, so the browser downloads the file
 * itself, as the payments CSV does) and the public key anyone checks statements with
 * (`GET /api/v1/statement-key`, no authentication: it is public by design).
 */
import { Router } from 'express';
import { statementParams, statementQuery } from '@quern/core/statements';
import { type ContextFactory, requireSession } from '../http/rest.js';

export function statementsRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  routes.get('/api/v1/statement-key', (req, res, next) => {
    try {
      res.json(createContext(req, res).statements.publicKey());
    } catch (error) {
      next(error);
    }
  });
  routes.get('/api/quern/statements/:month', async (req, res, next) => {
    try {
      const ctx = createContext(req, res);
      const session = await requireSession(ctx);
      const { month } = statementParams.parse({ ...req.params });
      await ctx.statements.answer(session.userId, month, statementQuery.parse({ ...req.query }), res);
    } catch (error) {
      next(error);
    }
  });
  return routes;
}
