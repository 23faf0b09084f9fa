/**
 * The web app's CSV download: `GET /api/quern/payments/export?from=&to=` with the session cookie,
 * so the browser downloads the file itself (a link, no script holding the rows). Same schema and
 * service as `GET /api/v1/payments/export`; the session is checked before the query is read.
 */
import { Router } from 'express';
import { paymentsExportQuery } from '@quern/core/payments';
import { type ContextFactory, requireSession } from '../http/rest.js';

export function paymentsRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  routes.get('/api/quern/payments/export', async (req, res, next) => {
    try {
      const ctx = createContext(req, res);
      const session = await requireSession(ctx);
      await ctx.payments.exportCsv(session.userId, paymentsExportQuery.parse({ ...req.query }), res);
    } catch (error) {
      next(error);
    }
  });
  return routes;
}
