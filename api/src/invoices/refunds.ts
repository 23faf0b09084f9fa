/**
 * Refunds of invoices as the api offers them (ADR 087): the merchant creates and cancels them
 * (`/api/v1/invoices/{id}/refunds`, tRPC for the Payments page); the payer opens the claim link
 * and names an address (public tRPC, the token checked before anything is read). Core decides and
 * pays out once; this tells the wallet read models whose balances moved.
 */
import { AppError } from '@quern/core';
import { loadUser } from '@quern/core/identity';
import {
  cancelInvoiceRefund,
  claimInvoiceRefund,
  createInvoiceRefundOnce,
  type InvoiceRefundCreateInput,
  type InvoiceRefundOutput,
  type InvoiceState,
  invoiceIdOfRefund,
  invoiceRefundNotFound,
  isRefundClaimToken,
  type RefundClaimOutput,
  readInvoice,
  refundClaimUrl,
  refundPayoutStatuses,
  toInvoiceOutput,
  toInvoiceRefundOutput,
} from '@quern/core/invoices';
import { parseAddress, type WalletDeps } from '@quern/core/wallet';

export interface InvoiceRefundServiceDeps {
  ledger: WalletDeps;
  publicUrl: string;
  appSecret: string;
  noteWrite?: (userId: string, position: bigint) => void;
}

const claimNotFound = () => new AppError('NOT_FOUND', 'errors:refundClaimNotFound');

export function createInvoiceRefundService(deps: InvoiceRefundServiceDeps) {
  const claimUrl = (refundId: string): string => refundClaimUrl(deps.publicUrl, deps.appSecret, refundId);

  /** The invoice as the API answers it, its refunds with their claim links and their payouts' outcomes. */
  async function invoiceOutput(invoice: InvoiceState) {
    const payoutStatuses = await refundPayoutStatuses(deps.ledger, invoice);
    return toInvoiceOutput(invoice, deps.publicUrl, { claimUrl, payoutStatuses });
  }

  async function refundOutput(invoice: InvoiceState, refundId: string): Promise<InvoiceRefundOutput> {
    const refund = invoice.refunds.get(refundId);
    if (!refund) throw invoiceRefundNotFound();
    return toInvoiceRefundOutput(invoice, refund, await refundPayoutStatuses(deps.ledger, invoice), claimUrl);
  }

  /** The refund a valid link names, with its invoice; a wrong token reads exactly as an unknown refund. */
  async function claimable(refundId: string, token: string): Promise<InvoiceState> {
    if (!isRefundClaimToken(deps.appSecret, refundId, token)) throw claimNotFound();
    const invoiceId = await invoiceIdOfRefund(deps.ledger, refundId);
    const invoice = invoiceId === undefined ? undefined : await readInvoice(deps.ledger, invoiceId);
    if (!invoice?.refunds.has(refundId)) throw claimNotFound();
    return invoice;
  }

  async function claimView(invoice: InvoiceState, refundId: string): Promise<RefundClaimOutput> {
    const refund = await refundOutput(invoice, refundId);
    const merchant = (await loadUser(deps.ledger, invoice.merchantUserId)).state;
    const username = merchant?.username ?? '';
    const name = merchant ? `${merchant.firstName} ${merchant.lastName}`.trim() : '';
    return {
      refund_id: refund.id,
      status: refund.status,
      amount_mlx: refund.amount_mlx,
      merchant: { name: name || username, username },
      reference: invoice.terms.reference ?? null,
      description: invoice.terms.description ?? null,
      to_address: refund.to_address,
      claimed_at: refund.claimed_at,
    };
  }

  return {
    invoiceOutput,

    async create(
      merchantUserId: string,
      invoiceId: string,
      idempotencyKey: string,
      input: InvoiceRefundCreateInput,
    ): Promise<InvoiceRefundOutput> {
      const created = await createInvoiceRefundOnce(deps.ledger, {
        merchantUserId,
        invoiceId,
        idempotencyKey,
        ...(input.amount === undefined ? {} : { amountMlx: input.amount }),
      });
      if (created.position !== undefined) deps.noteWrite?.(merchantUserId, created.position);
      return refundOutput(created.invoice, created.refundId);
    },

    async cancel(merchantUserId: string, invoiceId: string, refundId: string): Promise<InvoiceRefundOutput> {
      const invoice = await readInvoice(deps.ledger, invoiceId);
      if (!invoice || invoice.merchantUserId !== merchantUserId) throw new AppError('NOT_FOUND', 'errors:invoiceNotFound');
      const canceled = await cancelInvoiceRefund(deps.ledger, merchantUserId, invoiceId, refundId);
      if (canceled.position !== undefined) deps.noteWrite?.(merchantUserId, canceled.position);
      return refundOutput(canceled.invoice, refundId);
    },

    async claimView(refundId: string, token: string): Promise<RefundClaimOutput> {
      return claimView(await claimable(refundId, token), refundId);
    },

    /** The payer names the millix address the refund goes to; the link works once. */
    async claim(refundId: string, token: string, addressText: string): Promise<RefundClaimOutput> {
      await claimable(refundId, token);
      const parsed = parseAddress(addressText);
      // An address of another millix network (mainnet in a sandbox, testnet in live) would never arrive.
      if (!parsed.ok || parsed.network !== deps.ledger.network)
        throw new AppError('VALIDATION', 'errors:invalidAddress', { address: 'errors:invalidAddress' });
      const claimed = await claimInvoiceRefund(deps.ledger, { refundId, toAddress: addressText });
      if (claimed.position !== undefined) {
        deps.noteWrite?.(claimed.invoice.merchantUserId, claimed.position);
        if (claimed.toWalletId !== undefined) deps.noteWrite?.(claimed.toWalletId, claimed.position);
      }
      return claimView(claimed.invoice, refundId);
    },
  };
}
