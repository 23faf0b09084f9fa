/**
 * Recording a support message: one SupportMessageSubmitted on a new stream of its own, decided
 * by decider.ts through the command pipeline (ADR 063). The api calls this only after the captcha
 * and the rate limits passed; the mail worker does the rest.
 */
import type { Clock } from '../shared/clock.js';
import { handleCommand } from '../shared/command-handler.js';
import type { EventStore } from '../shared/ports/event-store.js';
import type { SupportSubmission } from './commands.js';
import { decideSupportMessage } from './decider.js';
import { supportStream } from './events.js';
import { supportMessageModel } from './state.js';

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
  const handled = await handleCommand(deps, supportStream(messageId), supportMessageModel, (state, now) => ({
    // The mails go out in the sender's language: the worker reads it from the event's metadata.
    events: decideSupportMessage(state, { type: 'SubmitSupportMessage', data: { messageId, submission } }, now).map((event) => ({
      ...event,
      metadata: { language: submission.language },
    })),
    result: undefined,
  }));
  if (handled.position === undefined) throw new Error('A submitted support message is appended');
  return { messageId, position: handled.position };
}
