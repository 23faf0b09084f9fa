/**
 * Pure payment link decisions (ADR 084): given a link's state (undefined before it is created), a
 * command and the time as data, which events happen, or which refusal. No I/O, no clock.
 *
 * Turning a link off or on twice is answered with no event (nothing changed). Only its merchant
 * may turn it off or on; another merchant is answered as for an unknown link. A visitor's price
 * (`priceForVisitor`) is decided here too: an inactive link makes no invoice, an open link takes
 * the visitor's amount within its bounds, a fixed link always asks its own amount.
 */
import { assertNever } from '../shared/assert.js';
import { AppError, RefusalError } from '../shared/errors.js';
import { linkAmountText, readLinkAmount } from './amount.js';
import type { CreatePaymentLink, PaymentLinkCommand } from './commands.js';
import { PAYMENT_LINK_ID_PATTERN, PAYMENT_LINK_SLUG_PATTERN, type PaymentLinkCurrency, type PaymentLinkEvent } from './events.js';
import type { PaymentLinkState } from './state.js';

export const paymentLinkNotFound = () => new AppError('NOT_FOUND', 'errors:paymentLinkNotFound');

/** The typed refusals a visitor's payment branches on; the message key is for people. */
export type PaymentLinkRefusalReason = 'inactive' | 'amountRequired' | 'amountInvalid' | 'belowMinimum' | 'aboveMaximum';

export class PaymentLinkRefusal extends RefusalError<PaymentLinkRefusalReason> {
  constructor(reason: PaymentLinkRefusalReason, code: 'CONFLICT' | 'VALIDATION', messageKey: string, params: Record<string, string> = {}) {
    super(reason, code, messageKey, reason === 'inactive' ? {} : { amount: messageKey }, params);
    this.name = 'PaymentLinkRefusal';
  }
}

function decideCreate(state: PaymentLinkState | undefined, data: CreatePaymentLink['data'], at: string): PaymentLinkEvent[] {
  if (!PAYMENT_LINK_ID_PATTERN.test(data.linkId))
    throw new Error(`A payment link id must match ${PAYMENT_LINK_ID_PATTERN}, not ${data.linkId}`);
  if (!PAYMENT_LINK_SLUG_PATTERN.test(data.slug))
    throw new Error(`A payment link slug must match ${PAYMENT_LINK_SLUG_PATTERN}, not ${data.slug}`);
  // Link ids come from an Idempotency-Key whose claim is appended with the link: an existing stream is a reused id.
  if (state) throw new AppError('CONFLICT', 'errors:internal');
  const { amount } = data;
  if (
    amount.kind === 'open' &&
    amount.minimum !== undefined &&
    amount.maximum !== undefined &&
    BigInt(amount.minimum) > BigInt(amount.maximum)
  )
    throw new AppError('VALIDATION', 'errors:paymentLinkBoundsInvalid', { max_amount: 'errors:paymentLinkBoundsInvalid' });
  return [
    {
      type: 'PaymentLinkCreated',
      data: {
        linkId: data.linkId,
        merchantUserId: data.merchantUserId,
        slug: data.slug,
        amount,
        ...(data.description === undefined ? {} : { description: data.description }),
        createdAt: at,
      },
    },
  ];
}

function ownLink(state: PaymentLinkState | undefined, merchantUserId: string): PaymentLinkState {
  if (!state || state.merchantUserId !== merchantUserId) throw paymentLinkNotFound();
  return state;
}

export function decidePaymentLink(state: PaymentLinkState | undefined, command: PaymentLinkCommand, now: Date): PaymentLinkEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'CreatePaymentLink':
      return decideCreate(state, command.data, at);
    case 'DeactivatePaymentLink': {
      const link = ownLink(state, command.data.merchantUserId);
      if (!link.active) return [];
      return [{ type: 'PaymentLinkDeactivated', data: { linkId: link.linkId, merchantUserId: link.merchantUserId, deactivatedAt: at } }];
    }
    case 'ActivatePaymentLink': {
      const link = ownLink(state, command.data.merchantUserId);
      if (link.active) return [];
      return [{ type: 'PaymentLinkActivated', data: { linkId: link.linkId, merchantUserId: link.merchantUserId, activatedAt: at } }];
    }
    default:
      return assertNever(command);
  }
}

/** The invoice's price a visit asks: whole units of the link's currency (MLX, or USD cents). */
export interface VisitorPrice {
  currency: PaymentLinkCurrency;
  units: bigint;
}

/**
 * What a visitor pays through the link: refused when the link is off; a fixed link's own amount
 * (whatever the visitor sent); an open link's the visitor's amount, positive and within its bounds.
 */
export function priceForVisitor(link: PaymentLinkState, visitorAmount: string | undefined): VisitorPrice {
  if (!link.active) throw new PaymentLinkRefusal('inactive', 'CONFLICT', 'errors:paymentLinkInactive');
  const { amount } = link;
  if (amount.kind === 'fixed') return { currency: amount.currency, units: BigInt(amount.value) };
  if (visitorAmount === undefined || visitorAmount.trim() === '')
    throw new PaymentLinkRefusal('amountRequired', 'VALIDATION', 'errors:paymentLinkAmountRequired');
  const read = readLinkAmount(visitorAmount, amount.currency);
  if ('messageKey' in read) throw new PaymentLinkRefusal('amountInvalid', 'VALIDATION', read.messageKey);
  if (amount.minimum !== undefined && read.units < BigInt(amount.minimum))
    throw new PaymentLinkRefusal('belowMinimum', 'VALIDATION', 'errors:paymentLinkAmountBelowMinimum', {
      minimum: `${linkAmountText(amount.minimum, amount.currency)} ${amount.currency}`,
    });
  if (amount.maximum !== undefined && read.units > BigInt(amount.maximum))
    throw new PaymentLinkRefusal('aboveMaximum', 'VALIDATION', 'errors:paymentLinkAmountAboveMaximum', {
      maximum: `${linkAmountText(amount.maximum, amount.currency)} ${amount.currency}`,
    });
  return { currency: amount.currency, units: read.units };
}
