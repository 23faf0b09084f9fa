/** A payment link folded from its stream (ADR 084): its terms and whether it makes invoices now. */
import type { StreamModel } from '../shared/command-handler.js';
import { type PaymentLinkAmount, type PaymentLinkEvent, parsePaymentLinkEvent } from './events.js';

export interface PaymentLinkState {
  linkId: string;
  merchantUserId: string;
  slug: string;
  amount: PaymentLinkAmount;
  description?: string;
  active: boolean;
  createdAt: string;
}

export function evolvePaymentLink(state: PaymentLinkState | undefined, event: PaymentLinkEvent): PaymentLinkState | undefined {
  switch (event.type) {
    case 'PaymentLinkCreated': {
      if (state) return state;
      const { linkId, merchantUserId, slug, amount, description, createdAt } = event.data;
      return { linkId, merchantUserId, slug, amount, ...(description === undefined ? {} : { description }), active: true, createdAt };
    }
    case 'PaymentLinkDeactivated':
      return state && { ...state, active: false };
    case 'PaymentLinkActivated':
      return state && { ...state, active: true };
  }
}

export const paymentLinkModel: StreamModel<PaymentLinkState | undefined, PaymentLinkEvent> = {
  initialState: () => undefined,
  evolve: evolvePaymentLink,
  parse: parsePaymentLinkEvent,
};
