/**
 * A shopper's receipts (issue 28, ADR 091): the receipt of one of the signed-in user's own
 * transactions, as data (the printable page) or as a PDF. The wallet searched is the session's,
 * so another user's transaction, a transaction with no receipt (a send, a refund) and an unknown
 * id all answer the same 404.
 */
import { AppError, type EventStore } from '@quern/core';
import type { Language } from '@quern/core/i18n';
import { type Receipt, receiptKindOf } from '@quern/core/receipts';
import { findHistoryEntry } from '@quern/projections';
import type { Redis } from 'ioredis';
import { buildReceipt } from './details.js';
import { renderReceiptPdf } from './pdf.js';

export interface ReceiptsServiceDeps {
  redis: Redis;
  store: EventStore;
  /** COMPANY_NAME: the seller named on a purchase's receipt and the issuer of every PDF. */
  company: string;
  /** Read-your-writes: a receipt opened right after paying finds its transaction. */
  awaitOwnWrites?: (userId: string) => Promise<void>;
}

export type ReceiptsService = ReturnType<typeof createReceiptsService>;

const receiptNotFound = () => new AppError('NOT_FOUND', 'errors:receiptNotFound');

export function createReceiptsService(deps: ReceiptsServiceDeps) {
  async function byId(userId: string, receiptId: string): Promise<Receipt> {
    await deps.awaitOwnWrites?.(userId);
    const entry = await findHistoryEntry(deps.redis, userId, receiptId);
    const kind = entry ? receiptKindOf(entry.transaction) : undefined;
    if (!entry || !kind) throw receiptNotFound();
    const receipt = await buildReceipt(deps.store, entry, kind, deps.company);
    if (!receipt) throw receiptNotFound();
    return receipt;
  }

  return {
    byId,
    async pdf(userId: string, receiptId: string, language: Language): Promise<{ receipt: Receipt; pdf: Buffer }> {
      const receipt = await byId(userId, receiptId);
      return { receipt, pdf: await renderReceiptPdf(receipt, language, deps.company) };
    },
  };
}
