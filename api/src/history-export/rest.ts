/**
 * The account page's CSV download: `GET /api/quern/history/export?from=&to=` with the session
 * cookie, so the browser downloads the file itself. The range reads as the merchant export's does
 * (a UTC day or an ISO 8601 instant at each end); the session is checked before the query is read.
 */
import { paymentsExportQuery } from '@quern/core/payments';
import { Router } from 'express';
import { type ContextFactory, requireSession } from '../http/rest.js';

export const HISTORY_EXPORT_PATH = '/api/quern/history/export';

export function historyExportRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  routes.get(HISTORY_EXPORT_PATH, async (req, res, next) => {
    try {
      const ctx = createContext(req, res);
      const session = await requireSession(ctx);
      await ctx.historyExport.exportCsv(session.userId, paymentsExportQuery.parse({ ...req.query }), res);
    } catch (error) {
      next(error);
    }
  });
  return routes;
}
