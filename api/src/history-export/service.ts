/**
 * The shopper's history export (issue 28, ADR 091): the signed-in user's own wallet, by date
 * range, as a CSV streamed as the answer. The wallet is the session's: no parameter names another.
 */
import type { EventStore } from '@quern/core';
import { exportRangeOf, type PaymentsExportQuery } from '@quern/core/payments';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { logUnexpectedError } from '../http/request-id.js';
import { writeHistoryCsv } from './csv.js';

export interface HistoryExportServiceDeps {
  redis: Redis;
  store: Pick<EventStore, 'readStream'>;
  /** Read-your-writes: resolves once the read models hold the user's last write (a send just made). */
  awaitOwnWrites?: (userId: string) => Promise<void>;
}

export type HistoryExportService = ReturnType<typeof createHistoryExportService>;

export function createHistoryExportService(deps: HistoryExportServiceDeps) {
  return {
    /**
     * Streams the CSV. Once the first byte is sent the status cannot change, so a failure midway
     * destroys the connection: the client sees a broken download, never a short file that looks complete.
     */
    async exportCsv(userId: string, query: PaymentsExportQuery, res: Response): Promise<void> {
      const range = exportRangeOf(query);
      await deps.awaitOwnWrites?.(userId);
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="quern-history-${range.fromDay}-${range.toDay}.csv"`);
      res.setHeader('Cache-Control', 'no-store');
      try {
        await writeHistoryCsv(deps.redis, deps.store, res, { walletId: userId, fromMs: range.fromMs, toMs: range.toMs });
        res.end();
      } catch (error) {
        if (!res.destroyed) logUnexpectedError(res.req, error);
        res.destroy();
      }
    },
  };
}
