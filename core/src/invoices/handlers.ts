/**
 * Invoice handlers (issue 27), each a call of the command pipeline on `invoice-<id>` (ADR 063).
 *
 * An invoice has an address of its own: another address of the merchant's millix wallet (a fresh
 * base with the wallet's key identifier, wallet/address.ts `deriveAddress`). Creating the invoice
 * claims that address for the merchant's wallet, so the deposit watcher credits what is paid to it,
 * and indexes it to the invoice (`invoice-address-<address>`), so each deposit to it is counted
 * for the invoice; the three appends are one atomic call, so there is never an invoice whose
 * address would not be credited, nor a credited address without its invoice.
 */
import type { Clock } from '../shared/clock.js';
import { type CommandDeps, foldEvents, handleCommand, readState } from '../shared/command-handler.js';
import type { StreamAppend } from '../shared/ports/event-store.js';
import { deriveAddress } from '../wallet/address.js';
import { addressClaim } from '../wallet/handlers.js';
import type { CancelInvoiceRefund, CreateInvoiceRefund, InvoiceCommand } from './commands.js';
import { decideInvoice, invoiceNotFound } from './decider.js';
import { INVOICE_ID_PATTERN, type InvoicePaymentRoute, type InvoiceTerms, invoiceStream } from './events.js';
import { type InvoiceState, invoiceModel } from './state.js';

export interface InvoiceDeps {
  store: CommandDeps['store'];
  clock: Clock;
  /** A fresh invoice id (`in_` and 32 hex digits). */
  newInvoiceId: () => string;
  /** 20 random bytes: the base of a fresh address of the merchant's wallet. */
  newAddressBase: () => Uint8Array;
}

const INVOICE_ADDRESS_PREFIX = 'invoice-address-';
export const invoiceAddressStream = (address: string): string => `${INVOICE_ADDRESS_PREFIX}${address}`;
const INVOICE_ADDRESS_ASSIGNED = 'InvoiceAddressAssigned';

const invoiceAddressIndex = (address: string, invoiceId: string): StreamAppend => ({
  streamId: invoiceAddressStream(address),
  events: [{ type: INVOICE_ADDRESS_ASSIGNED, data: { address, invoiceId } }],
  expectedRevision: 'no_stream',
});

/** The invoice an address belongs to, strongly consistent; undefined for any other address. */
export async function findInvoiceIdByAddress(deps: Pick<InvoiceDeps, 'store'>, address: string): Promise<string | undefined> {
  const [record] = await deps.store.readStream(invoiceAddressStream(address), { maxCount: 1 });
  const invoiceId = record?.type === INVOICE_ADDRESS_ASSIGNED && typeof record.data === 'object' ? record.data.invoiceId : undefined;
  return typeof invoiceId === 'string' && INVOICE_ID_PATTERN.test(invoiceId) ? invoiceId : undefined;
}

/**
 * An invoice folded from its stream; undefined when there is none. `upToRevision` folds it only up
 * to that event, the invoice as it was right after it, which a webhook reports (ADR 071).
 */
export async function readInvoice(
  deps: Pick<InvoiceDeps, 'store'>,
  invoiceId: string,
  options: { upToRevision?: bigint } = {},
): Promise<InvoiceState | undefined> {
  if (!INVOICE_ID_PATTERN.test(invoiceId)) return undefined;
  return (await readState(deps.store, invoiceStream(invoiceId), invoiceModel, options)).state;
}

async function handleInvoiceCommand(
  deps: Pick<InvoiceDeps, 'store' | 'clock'>,
  invoiceId: string,
  command: InvoiceCommand,
  companions: StreamAppend[] = [],
) {
  if (!INVOICE_ID_PATTERN.test(invoiceId)) throw invoiceNotFound();
  const handled = await handleCommand(
    deps,
    invoiceStream(invoiceId),
    invoiceModel,
    (state, now) => ({ events: decideInvoice(state, command, now), result: undefined }),
    companions.length > 0 ? { companions: (decision) => (decision.events.length > 0 ? companions : []) } : {},
  );
  const invoice = foldEvents(invoiceModel, handled.state, handled.events);
  if (!invoice) throw invoiceNotFound();
  return { invoice, position: handled.position };
}

/**
 * A new invoice of the merchant, at a fresh address of the merchant's wallet (`merchantAddress` is
 * the wallet's own). `invoiceId` names it when the caller derives the id (from an Idempotency-Key);
 * `companions` go into the same atomic append (the key's claim).
 */
export async function createInvoice(
  deps: InvoiceDeps,
  input: { merchantUserId: string; merchantAddress: string; terms: InvoiceTerms; invoiceId?: string; companions?: StreamAppend[] },
): Promise<{ invoice: InvoiceState; position?: bigint }> {
  const invoiceId = input.invoiceId ?? deps.newInvoiceId();
  if (!INVOICE_ID_PATTERN.test(invoiceId)) throw new Error(`An invoice id must match ${INVOICE_ID_PATTERN}, not ${invoiceId}`);
  const address = deriveAddress(input.merchantAddress, deps.newAddressBase());
  const command: InvoiceCommand = {
    type: 'CreateInvoice',
    data: { invoiceId, merchantUserId: input.merchantUserId, address, terms: input.terms },
  };
  return handleInvoiceCommand(deps, invoiceId, command, [
    addressClaim(address, input.merchantUserId),
    invoiceAddressIndex(address, invoiceId),
    ...(input.companions ?? []),
  ]);
}

/** A payment to the invoice reached a stage (seen, settled, failed); the same stage twice is recorded once. */
export function recordInvoicePayment(
  deps: Pick<InvoiceDeps, 'store' | 'clock'>,
  invoiceId: string,
  payment: { paymentId: string; route: InvoicePaymentRoute; amountMlx: bigint; stage: 'seen' | 'settled' | 'failed' },
) {
  return handleInvoiceCommand(deps, invoiceId, { type: 'RecordInvoicePayment', data: payment });
}

export function expireInvoice(deps: Pick<InvoiceDeps, 'store' | 'clock'>, invoiceId: string) {
  return handleInvoiceCommand(deps, invoiceId, { type: 'ExpireInvoice', data: {} });
}

export function voidInvoice(deps: Pick<InvoiceDeps, 'store' | 'clock'>, invoiceId: string, merchantUserId: string) {
  return handleInvoiceCommand(deps, invoiceId, { type: 'VoidInvoice', data: { merchantUserId } });
}

/** A refund of the invoice (refunds.ts decides its id and the key's claim, the companion). */
export function createInvoiceRefundCommand(
  deps: Pick<InvoiceDeps, 'store' | 'clock'>,
  invoiceId: string,
  input: { data: CreateInvoiceRefund['data']; companions: StreamAppend[] },
) {
  return handleInvoiceCommand(deps, invoiceId, { type: 'CreateInvoiceRefund', data: input.data }, input.companions);
}

export function cancelInvoiceRefundCommand(
  deps: Pick<InvoiceDeps, 'store' | 'clock'>,
  invoiceId: string,
  data: CancelInvoiceRefund['data'],
) {
  return handleInvoiceCommand(deps, invoiceId, { type: 'CancelInvoiceRefund', data });
}

/** The refund's claim link went to the payer's e-mail: the e-mail job's completion, recorded once. */
export function recordInvoiceRefundEmailSent(
  deps: Pick<InvoiceDeps, 'store' | 'clock'>,
  invoiceId: string,
  data: { refundId: string; messageId: string },
) {
  return handleInvoiceCommand(deps, invoiceId, { type: 'RecordInvoiceRefundEmailSent', data });
}
