/** A support message folded from its stream: what was submitted, and whether it was mailed. */
import { assertNever } from '../shared/assert.js';
import { strictParser, type StreamModel } from '../shared/command-handler.js';
import { toSupportEvent, type SupportEvent, type SupportMessageSent, type SupportMessageSubmitted } from './events.js';

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

/** A support message's stream for the command pipeline; an event it cannot read is refused. */
export const supportMessageModel: StreamModel<SupportMessageState, SupportEvent> = {
  initialState: initialSupportMessageState,
  evolve: evolveSupportMessage,
  parse: strictParser(toSupportEvent),
};
