/**
 * The web app's invoices CSV download: `GET /api/quern/invoices/export?from=&to=` with the session
 * cookie, so the browser downloads the file itself. Same schema and service as
 * `GET /api/v1/invoices/export`; the session is checked before the query is read.
 */
import { Router } from 'express';
import { paymentsExportQuery } from '@quern/core/payments';
import { type ContextFactory, requireSession } from '../http/rest.js';

export function invoicesRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  routes.get('/api/quern/invoices/export', async (req, res, next) => {
    try {
      const ctx = createContext(req, res);
      const session = await requireSession(ctx);
      await ctx.invoices.exportCsv(session.userId, paymentsExportQuery.parse({ ...req.query }), res);
    } catch (error) {
      next(error);
    }
  });
  return routes;
}
