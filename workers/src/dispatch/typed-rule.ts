/**
 * Typed dispatch rules, shared by the rule lists of every capability (dispatch/rules.ts and the
 * subscription rules).
 */
import type { RecordedEvent } from '@quern/core';
import type { DispatchRule } from './rules.js';

export type TypedEvent = { type: string; data: unknown };

/**
 * A rule written against typed events: the request and completion types are checked against the
 * capability's event union, and each recorded event is read through core's schema reader before
 * the rule sees it, so a rule names fields of a typed event instead of looking them up by string.
 */
export interface TypedRule<Request extends TypedEvent, Completion extends TypedEvent> {
  /** core's reader for the capability's events (toWalletEvent, toUserEvent, toPurchaseEvent). */
  read: (recorded: { type: string; data: unknown }) => TypedEvent | undefined;
  request: Request['type'];
  completions: readonly Completion['type'][];
  queue: string;
  name: string;
  jobId(request: Request): string;
  payload(request: Request, recorded: RecordedEvent): Record<string, unknown>;
  matchCompletion(completion: Completion): string;
  needsJob?(request: Request): boolean;
}

export function typedRule<Request extends TypedEvent, Completion extends TypedEvent>(rule: TypedRule<Request, Completion>): DispatchRule {
  const readAs = <T extends TypedEvent>(recorded: RecordedEvent, types: readonly string[]): T => {
    const event = rule.read(recorded);
    if (!event || !types.includes(event.type))
      throw new Error(`${recorded.type} at position ${recorded.position} is not a well-formed ${types.join(' or ')}`);
    return event as T;
  };
  const readRequest = (recorded: RecordedEvent) => readAs<Request>(recorded, [rule.request]);
  const { needsJob } = rule;
  return {
    request: rule.request,
    completions: rule.completions,
    queue: rule.queue,
    name: rule.name,
    jobId: (recorded) => rule.jobId(readRequest(recorded)),
    payload: (recorded) => rule.payload(readRequest(recorded), recorded),
    matchCompletion: (recorded) => rule.matchCompletion(readAs<Completion>(recorded, rule.completions)),
    needsJob: needsJob && ((recorded) => needsJob(readRequest(recorded))),
  };
}
