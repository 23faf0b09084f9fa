/**
 * A receipt's PDF: `GET /api/quern/receipts/{id}/pdf?lang=en|es` with the session cookie, so the
 * browser downloads it from a plain link. The language is the query's, else the caller's (its
 * language cookie, else Accept-Language). The session is checked before the input is read.
 */
import { receiptByIdInput, receiptPdfQuery } from '@quern/core/receipts';
import { Router } from 'express';
import { type ContextFactory, requestLanguage, requireSession } from '../http/rest.js';

export const receiptPdfPath = (id: string): string => `/api/quern/receipts/${encodeURIComponent(id)}/pdf`;

export function receiptsRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  routes.get('/api/quern/receipts/:id/pdf', async (req, res, next) => {
    try {
      const ctx = createContext(req, res);
      const session = await requireSession(ctx);
      const { id } = receiptByIdInput.parse({ id: req.params.id });
      const { lang } = receiptPdfQuery.parse({ ...req.query });
      const { receipt, pdf } = await ctx.receipts.pdf(session.userId, id, lang ?? requestLanguage(req));
      res.status(200);
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `attachment; filename="quern-receipt-${receipt.id}.pdf"`);
      res.setHeader('Content-Length', String(pdf.length));
      res.end(pdf);
    } catch (error) {
      next(error);
    }
  });
  return routes;
}
