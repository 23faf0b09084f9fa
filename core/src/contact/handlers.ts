/**
 * Recording a support message: one SupportMessageSubmitted on a new stream of its own. The api
 * calls this only after the captcha and the rate limits passed; the mail worker does the rest.
 */
import type { Clock } from '../shared/clock.js';
import type { EventStore } from '../shared/ports/event-store.js';
import type { SupportSubmission } from './commands.js';
import { supportStream, toSupportEvent, type SupportMessageSubmitted } from './events.js';

export interface SupportDeps {
  store: EventStore;
  clock: Clock;
  newId: () => string;
}

export async function submitSupportMessage(
  deps: SupportDeps,
  submission: SupportSubmission,
): Promise<{ messageId: string; position: bigint }> {
  const messageId = deps.newId();
  const event: SupportMessageSubmitted = {
    type: 'SupportMessageSubmitted',
    data: { messageId, ...submission, submittedAt: deps.clock.now().toISOString() },
  };
  // The same schema the worker reads with: a message that would not read back is never written.
  if (!toSupportEvent(event)) throw new Error('SupportMessageSubmitted does not match its schema');
  const result = await deps.store.append(
    supportStream(messageId),
    [{ type: event.type, data: event.data, metadata: { language: submission.language } }],
    'no_stream',
  );
  return { messageId, position: result.position };
}
