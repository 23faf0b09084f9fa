/**
 * Pure support message decisions: given a message's state, a command and the time as data,
 * which events happen. No I/O, no clock, no randomness.
 */
import type { SupportCommand } from './commands.js';
import { toSupportEvent, type SupportMessageSubmitted } from './events.js';
import type { SupportMessageState } from './state.js';

/**
 * A message is recorded once, on its own new stream. It is checked with the same schema the mail
 * worker reads with, so a message that would not read back (a line break in a header field) is
 * never written.
 */
export function decideSupportMessage(state: SupportMessageState, command: SupportCommand, now: Date): SupportMessageSubmitted[] {
  const { messageId, submission } = command.data;
  // Message ids are fresh UUIDs: a stream that holds a message already means the id was reused.
  if (state.submitted) throw new Error(`Support message ${messageId} is recorded already`);
  const event: SupportMessageSubmitted = {
    type: 'SupportMessageSubmitted',
    data: { messageId, ...submission, submittedAt: now.toISOString() },
  };
  if (!toSupportEvent(event)) throw new Error('SupportMessageSubmitted does not match its schema');
  return [event];
}
