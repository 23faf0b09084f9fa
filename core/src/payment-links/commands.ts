/** What callers ask of a payment link (ADR 084); the decider answers with events or a refusal. */
import type { PaymentLinkAmount } from './events.js';

export interface CreatePaymentLink {
  type: 'CreatePaymentLink';
  data: { linkId: string; merchantUserId: string; slug: string; amount: PaymentLinkAmount; description?: string };
}

export interface DeactivatePaymentLink {
  type: 'DeactivatePaymentLink';
  data: { merchantUserId: string };
}

export interface ActivatePaymentLink {
  type: 'ActivatePaymentLink';
  data: { merchantUserId: string };
}

export type PaymentLinkCommand = CreatePaymentLink | DeactivatePaymentLink | ActivatePaymentLink;
