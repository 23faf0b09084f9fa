/**
 * Pure invoice decisions (issue 27): given an invoice's state (undefined before it is created), a
 * command and the time as data, which events happen, or which refusal. No I/O, no clock.
 *
 * Money that reaches an invoice is always recorded, whatever the invoice's status: a payment after
 * the expiry or after a void is MLX the merchant received, so it is counted (and, for an expired
 * invoice that it completes, flagged as paid late), never dropped. The same payment seen twice is
 * recorded once; the same payment id with another amount is a conflict, never merged.
 */
import { assertNever } from '../shared/assert.js';
import { AppError } from '../shared/errors.js';
import { MLX_TOTAL_SUPPLY, mlxToWire } from '../wallet/money.js';
import type { CreateInvoice, InvoiceCommand, RecordInvoicePayment, VoidInvoice } from './commands.js';
import { INVOICE_ID_PATTERN, INVOICE_PAYMENT_ID_PATTERN, type InvoiceCreated, type InvoiceEvent } from './events.js';
import { decideInvoiceRefund } from './refund-decider.js';
import { type InvoiceState, evolveInvoice, invoiceAmounts, invoiceStatus } from './state.js';

/** An event as a decision makes it: its `status` is set once the decision is folded (withStatus). */
type Undecorated<E> = E extends { data: infer D }
  ? Omit<E, 'data'> & { data: Omit<D, 'status' | 'previousStatus' | 'merchantUserId'> }
  : never;
type Decided = InvoiceCreated | Undecorated<Exclude<InvoiceEvent, InvoiceCreated>>;

export const invoiceNotFound = () => new AppError('NOT_FOUND', 'errors:invoiceNotFound');

/** The typed refusals callers branch on; the message key is for people. */
export class InvoiceRefusal extends AppError {
  constructor(
    readonly reason: 'hasPayments' | 'notOpen' | 'notPayable',
    messageKey: string,
  ) {
    super('CONFLICT', messageKey);
    this.name = 'InvoiceRefusal';
  }
}

function decideCreate(state: InvoiceState | undefined, data: CreateInvoice['data'], at: string): Decided[] {
  if (!INVOICE_ID_PATTERN.test(data.invoiceId)) throw new Error(`An invoice id must match ${INVOICE_ID_PATTERN}, not ${data.invoiceId}`);
  // Invoice ids are fresh and random: an existing stream means the id was reused. Refuse, never merge.
  if (state) throw new AppError('CONFLICT', 'errors:internal');
  const amountMlx = BigInt(data.terms.amountMlx);
  if (amountMlx <= 0n || amountMlx > MLX_TOTAL_SUPPLY)
    throw new AppError('VALIDATION', 'errors:invalidAmount', { amount: 'errors:invalidAmount' });
  if (!(Date.parse(data.terms.expiresAt) > Date.parse(at))) throw new AppError('VALIDATION', 'errors:invalidRequest');
  const { invoiceId, merchantUserId, address, terms } = data;
  return [{ type: 'InvoiceCreated', data: { invoiceId, merchantUserId, address, ...terms, createdAt: at } }];
}

function decidePayment(state: InvoiceState | undefined, data: RecordInvoicePayment['data'], at: string): Decided[] {
  if (!state) throw invoiceNotFound();
  if (!INVOICE_PAYMENT_ID_PATTERN.test(data.paymentId) || data.amountMlx <= 0n) throw new AppError('VALIDATION', 'errors:invalidRequest');
  const { invoiceId } = state;
  const { paymentId, route } = data;
  const known = state.payments.get(paymentId);
  if (known && (known.amountMlx !== data.amountMlx || known.route !== route)) throw new AppError('CONFLICT', 'errors:idempotencyConflict');
  const amountMlx = mlxToWire(data.amountMlx);
  switch (data.stage) {
    case 'seen':
      return known ? [] : [{ type: 'InvoicePaymentSeen', data: { invoiceId, paymentId, route, amountMlx, seenAt: at } }];
    case 'settled':
      if (known?.stage === 'settled') return [];
      // The network does not turn a refused transaction into a stable one: the log would contradict itself.
      if (known?.stage === 'failed') throw new AppError('CONFLICT', 'errors:idempotencyConflict');
      return [{ type: 'InvoicePaymentSettled', data: { invoiceId, paymentId, route, amountMlx, settledAt: at } }];
    case 'failed':
      if (known?.stage === 'failed') return [];
      if (known?.stage === 'settled') throw new AppError('CONFLICT', 'errors:idempotencyConflict');
      // The refusal may be recorded before the sighting (jobs run in any order): it is kept with
      // its amount, and the late sighting then finds the payment known and records nothing.
      return [
        {
          type: 'InvoicePaymentFailed',
          data: { invoiceId, paymentId, failedAt: at, ...(known ? {} : { route, amountMlx }) },
        },
      ];
    default:
      return assertNever(data.stage);
  }
}

/**
 * The expiry: nothing before its time, nothing for an invoice already paid, expired or void, and
 * nothing yet while a payment seen in time is settling (the payer was on time; its outcome decides).
 */
function decideExpire(state: InvoiceState | undefined, now: Date, at: string): Decided[] {
  if (!state) throw invoiceNotFound();
  if (now.getTime() < Date.parse(state.terms.expiresAt)) return [];
  const status = invoiceStatus(state);
  if (status === 'open' || status === 'partially_paid')
    return [{ type: 'InvoiceExpired', data: { invoiceId: state.invoiceId, expiredAt: at } }];
  return [];
}

/** Only the merchant voids, and only an invoice nothing has reached yet. */
function decideVoid(state: InvoiceState | undefined, data: VoidInvoice['data'], at: string): Decided[] {
  if (!state || state.merchantUserId !== data.merchantUserId) throw invoiceNotFound();
  if (state.voidedAt !== undefined) return [];
  if ([...state.payments.values()].some((payment) => payment.stage !== 'failed'))
    throw new InvoiceRefusal('hasPayments', 'errors:invoiceHasPayments');
  if (state.expiredAt !== undefined) throw new InvoiceRefusal('notOpen', 'errors:invoiceNotOpen');
  return [{ type: 'InvoiceVoided', data: { invoiceId: state.invoiceId, voidedAt: at } }];
}

function decideUndecorated(state: InvoiceState | undefined, command: InvoiceCommand, now: Date): Decided[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'CreateInvoiceRefund':
    case 'ClaimInvoiceRefund':
    case 'CancelInvoiceRefund':
    case 'RecordInvoiceRefundEmailSent':
      if (!state) throw command.type === 'ClaimInvoiceRefund' ? new AppError('NOT_FOUND', 'errors:refundClaimNotFound') : invoiceNotFound();
      return decideInvoiceRefund(state, command, at);
    case 'CreateInvoice':
      return decideCreate(state, command.data, at);
    case 'RecordInvoicePayment':
      return decidePayment(state, command.data, at);
    case 'ExpireInvoice':
      return decideExpire(state, now, at);
    case 'VoidInvoice':
      return decideVoid(state, command.data, at);
    default:
      return assertNever(command);
  }
}

/**
 * Each decided event with the merchant and the status the invoice has before and once it applies
 * (InvoiceCreated names its merchant already and opens the invoice). The fold reads neither field.
 */
function withStatus(state: InvoiceState | undefined, decided: Decided[]): InvoiceEvent[] {
  let folded = state;
  return decided.map((event) => {
    if (event.type === 'InvoiceCreated') {
      folded = evolveInvoice(folded, event);
      return event;
    }
    const merchantUserId = folded?.merchantUserId ?? '';
    const previousStatus = folded ? invoiceStatus(folded) : 'open';
    const partial = { ...event, data: { ...event.data, merchantUserId, status: previousStatus, previousStatus } } as InvoiceEvent;
    folded = evolveInvoice(folded, partial);
    if (!folded) return partial;
    return { ...partial, data: { ...partial.data, status: invoiceStatus(folded) } } as InvoiceEvent;
  });
}

export function decideInvoice(state: InvoiceState | undefined, command: InvoiceCommand, now: Date): InvoiceEvent[] {
  return withStatus(state, decideUndecorated(state, command, now));
}

/**
 * What a Quern user pays from their balance ('Pay with Quern'): the amount still missing, while the
 * invoice is open or partly paid, within its time and not void. A payment already on its way
 * (processing) must settle first, so a balance never pays what a deposit is about to cover.
 */
export function quernPaymentDue(state: InvoiceState | undefined, now: Date): bigint {
  if (!state) throw invoiceNotFound();
  const status = invoiceStatus(state);
  if ((status !== 'open' && status !== 'partially_paid') || now.getTime() >= Date.parse(state.terms.expiresAt))
    throw new InvoiceRefusal('notPayable', 'errors:invoiceNotPayable');
  return invoiceAmounts(state).dueMlx;
}
