/**
 * The merchant's payments as the api offers them (ADR 034): the cursor list, the CSV export, one
 * payment and the wallet balance, now or as of a moment (ADR 089), for a merchant named by the API
 * key (/api/v1) or by the session (the web app). The present is read from the merchant-payments and
 * wallets read models, the past folded from the log; nothing here writes.
 */
import type { Response } from 'express';
import { exportRangeOf, PAYMENTS_PAGE_SIZE, type PaymentsExportQuery, type PaymentsList } from '@quern/core/payments';
import { listMerchantPayments } from '@quern/projections';
import type { Redis } from 'ioredis';
import { logUnexpectedError } from '../http/request-id.js';
import { type AsOfDeps, createAsOfReads } from './as-of.js';
import { writePaymentsCsv } from './csv-export.js';

export interface PaymentsServiceDeps extends AsOfDeps {
  redis: Redis;
  /** Read-your-writes: resolves once the read models hold the merchant's last write (a refund, a payout). */
  awaitOwnWrites?: (userId: string) => Promise<void>;
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;

export function createPaymentsService(deps: PaymentsServiceDeps) {
  return {
    async list(merchantUserId: string, page: { limit?: number; startingAfter?: string | null }): Promise<PaymentsList> {
      await deps.awaitOwnWrites?.(merchantUserId);
      return listMerchantPayments(deps.redis, merchantUserId, {
        limit: page.limit ?? PAYMENTS_PAGE_SIZE,
        startingAfter: page.startingAfter,
      });
    },

    // The balance and one payment, now or as of a moment (ADR 089).
    ...createAsOfReads(deps),

    /**
     * Streams the CSV as the answer. Once the first byte is sent the status cannot change, so a
     * failure midway destroys the connection: the client sees a broken download, never a short
     * file that looks complete.
     */
    async exportCsv(merchantUserId: string, query: PaymentsExportQuery, res: Response): Promise<void> {
      const range = exportRangeOf(query);
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="quern-payments-${range.fromDay}-${range.toDay}.csv"`);
      res.setHeader('Cache-Control', 'no-store');
      try {
        await writePaymentsCsv(deps.redis, res, { merchantUserId, fromMs: range.fromMs, toMs: range.toMs });
        res.end();
      } catch (error) {
        if (!res.destroyed) logUnexpectedError(res.req, error);
        res.destroy();
      }
    },
  };
}
