/** A support message folded from its stream: what was submitted, and whether it was mailed. */
import { assertNever } from '../shared/assert.js';
import type { SupportEvent, SupportMessageSent, SupportMessageSubmitted } from './events.js';

export interface SupportMessageState {
  submitted?: SupportMessageSubmitted['data'];
  sent?: SupportMessageSent['data'];
}

export const initialSupportMessageState = (): SupportMessageState => ({});

export function evolveSupportMessage(state: SupportMessageState, event: SupportEvent): SupportMessageState {
  switch (event.type) {
    case 'SupportMessageSubmitted':
      return { ...state, submitted: event.data };
    case 'SupportMessageSent':
      return { ...state, sent: event.data };
    default:
      return assertNever(event);
  }
}
