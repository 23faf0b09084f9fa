/**
 * Invoices as the api offers them (issue 27, ADR 081): the merchant creates, reads, lists and voids
 * them (`/api/v1/invoices` with the key, tRPC for the web app); anyone with the link reads the
 * public view the hosted page shows; a signed-in Quern user pays one from their balance.
 */
import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { AppError } from '@quern/core';
import {
  createInvoiceOnce,
  type InvoiceCreateInput,
  type InvoiceDeps,
  type InvoiceOutput,
  type InvoicePublicOutput,
  type InvoicesList,
  type InvoiceState,
  invoiceNotFound,
  payInvoiceFromBalance,
  readInvoice,
  showsWhereToPay,
  toInvoiceOutput,
  toInvoicePublicOutput,
  voidInvoice,
  type InvoiceStatus,
} from '@quern/core/invoices';
import { exportRangeOf, type PaymentsExportQuery } from '@quern/core/payments';
import { currentExchangeRate, type WalletDeps, walletAddressOf } from '@quern/core/wallet';
import { loadUser } from '@quern/core/identity';
import { listMerchantInvoiceIds } from '@quern/projections';
import type { Redis } from 'ioredis';
import { qrCodeSvg } from '../http/qr-code.js';
import { logUnexpectedError } from '../http/request-id.js';
import { writeInvoicesCsv } from './csv-export.js';
import { createInvoiceRefundService } from './refunds.js';

export interface InvoiceServiceDeps {
  ledger: WalletDeps;
  redis: Redis;
  /** The public origin the hosted page is served from (`hosted_url`). */
  publicUrl: string;
  /** Tells the wallet service a user's balance changed at this log position (read-your-writes). */
  noteWrite?: (userId: string, position: bigint) => void;
  /** Resolves once the read models hold the user's last write. */
  awaitOwnWrites?: (userId: string) => Promise<void>;
  /** Signs refund claim links (ADR 087). */
  appSecret: string;
}

export type InvoiceService = ReturnType<typeof createInvoiceService>;

export function createInvoiceService(deps: InvoiceServiceDeps) {
  const core: InvoiceDeps & Pick<WalletDeps, 'store'> = {
    store: deps.ledger.store,
    clock: deps.ledger.clock,
    // Ids of created invoices come from their Idempotency-Key (create.ts); this one is never used for them.
    newInvoiceId: () => `in_${randomBytes(16).toString('hex')}`,
    newAddressBase: () => new Uint8Array(randomBytes(20)),
  };
  const refunds = createInvoiceRefundService(deps);
  const output = (invoice: InvoiceState): Promise<InvoiceOutput> => refunds.invoiceOutput(invoice);

  /** The merchant's own invoice; another merchant's answers exactly as an unknown one. */
  async function ownInvoice(merchantUserId: string, invoiceId: string): Promise<InvoiceState> {
    const invoice = await readInvoice(core, invoiceId);
    if (!invoice || invoice.merchantUserId !== merchantUserId) throw invoiceNotFound();
    return invoice;
  }

  return {
    async create(merchantUserId: string, idempotencyKey: string, input: InvoiceCreateInput): Promise<InvoiceOutput> {
      const merchantAddress = await walletAddressOf(core, merchantUserId);
      if (merchantAddress === undefined) throw new AppError('NOT_FOUND', 'errors:userNotFound');
      const rate = input.price.currency === 'USD' ? await currentExchangeRate(core.store) : undefined;
      const created = await createInvoiceOnce(core, { merchantUserId, merchantAddress, idempotencyKey, input, rate });
      if (created.position !== undefined) deps.noteWrite?.(merchantUserId, created.position);
      return output(created.invoice);
    },

    async get(merchantUserId: string, invoiceId: string): Promise<InvoiceOutput> {
      return output(await ownInvoice(merchantUserId, invoiceId));
    },

    /**
     * A page of the merchant's invoices, newest first. The read model gives the ids; each invoice is
     * folded from its stream, so what is answered is the log's now. The status filter is applied
     * again to that, so an invoice whose status changed since the read model saw it is left out
     * rather than answered under a status it no longer has.
     */
    async list(merchantUserId: string, page: { limit: number; startingAfter?: string; status?: InvoiceStatus }): Promise<InvoicesList> {
      await deps.awaitOwnWrites?.(merchantUserId);
      const { ids, hasMore } = await listMerchantInvoiceIds(deps.redis, merchantUserId, page);
      const invoices = await Promise.all(ids.map((id) => readInvoice(core, id)));
      const outputs = await Promise.all(
        invoices.filter((invoice): invoice is InvoiceState => invoice?.merchantUserId === merchantUserId).map(output),
      );
      const data = outputs.filter((invoice) => page.status === undefined || invoice.status === page.status);
      const last = ids[ids.length - 1];
      return { object: 'list', data, has_more: hasMore, next_cursor: hasMore && last !== undefined ? last : null };
    },

    /**
     * The merchant's invoices created in the range, oldest first, as a CSV attachment (the same
     * range query and conventions as the payments export). A failure after the headers went out
     * can only cut the stream short, so it is logged and the connection closed.
     */
    async exportCsv(merchantUserId: string, query: PaymentsExportQuery, res: Response): Promise<void> {
      const range = exportRangeOf(query);
      await deps.awaitOwnWrites?.(merchantUserId);
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="quern-invoices-${range.fromDay}-${range.toDay}.csv"`);
      res.setHeader('Cache-Control', 'no-store');
      const readOwn = async (invoiceId: string): Promise<InvoiceOutput | undefined> => {
        const invoice = await readInvoice(core, invoiceId);
        return invoice?.merchantUserId === merchantUserId ? output(invoice) : undefined;
      };
      try {
        await writeInvoicesCsv(deps.redis, res, { merchantUserId, fromMs: range.fromMs, toMs: range.toMs, readInvoice: readOwn });
        res.end();
      } catch (error) {
        if (!res.destroyed) logUnexpectedError(res.req, error);
        res.destroy();
      }
    },

    async void(merchantUserId: string, invoiceId: string): Promise<InvoiceOutput> {
      await ownInvoice(merchantUserId, invoiceId);
      const voided = await voidInvoice(core, invoiceId, merchantUserId);
      if (voided.position !== undefined) deps.noteWrite?.(merchantUserId, voided.position);
      return output(voided.invoice);
    },

    /** What the hosted page shows anyone with the link (no metadata; no address once it takes no payment). */
    async publicView(invoiceId: string): Promise<InvoicePublicOutput> {
      const invoice = await readInvoice(core, invoiceId);
      if (!invoice) throw invoiceNotFound();
      const merchant = (await loadUser(deps.ledger, invoice.merchantUserId)).state;
      const username = merchant?.username ?? '';
      const name = merchant ? `${merchant.firstName} ${merchant.lastName}`.trim() : '';
      // The public view shows no refunds: the payer reads theirs on the claim link.
      const answer = toInvoiceOutput(invoice, deps.publicUrl);
      const qrSvg = showsWhereToPay(answer.status) ? await qrCodeSvg(answer.payment_uri) : null;
      return toInvoicePublicOutput(answer, { name: name || username, username }, qrSvg);
    },

    refund: refunds.create,
    cancelRefund: refunds.cancel,
    refundClaimView: refunds.claimView,
    claimRefund: refunds.claim,

    /** 'Pay with Quern': the payer's balance pays what the invoice misses, once (core/src/invoices/pay-from-balance.ts). */
    async payFromBalance(payerUserId: string, invoiceId: string): Promise<InvoicePublicOutput> {
      // The wallet's rules refuse paying one's own invoice (cannotSendToSelf) and too small a balance.
      const paid = await payInvoiceFromBalance(deps.ledger, { invoiceId, payerUserId });
      if (paid.position !== undefined) {
        deps.noteWrite?.(payerUserId, paid.position);
        deps.noteWrite?.(paid.invoice.merchantUserId, paid.position);
      }
      return this.publicView(invoiceId);
    },
  };
}
