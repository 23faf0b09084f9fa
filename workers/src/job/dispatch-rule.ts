/**
 * A dispatch rule: which event asks for which job, and which event records it as done. Each job
 * folder declares its own rules with these types; dispatch/rules.ts only lists them, so this
 * module imports no job and no list (a leaf every rule can import without a circle).
 */
import type { RecordedEvent } from '@quern/core';

export interface DispatchRule {
  /** Event type that asks for the work. */
  request: string;
  /**
   * Event types that record the work as done; any one of them closes it (a transfer ends
   * posted or voided). Each must carry what matchCompletion needs to name the job.
   */
  completions: readonly string[];
  queue: string;
  /** BullMQ job name. */
  name: string;
  /** Deterministic: a pure function of the request event. Throws when the event is malformed. */
  jobId(request: RecordedEvent): string;
  /** The job's data, already valid for the job's payload schema. Throws when the event is malformed. */
  payload(request: RecordedEvent): Record<string, unknown>;
  /** The job id this completion event closes, so matching requests and completions is a lookup. */
  matchCompletion(completion: RecordedEvent): string;
  /**
   * Whether this request event needs the job at all (default: always). Decided from the event
   * alone, so live dispatch and re-derivation after a Redis loss agree.
   */
  needsJob?(request: RecordedEvent): boolean;
}

/** A job ready to enqueue, with the position of the request that asked for it. */
export interface PendingJob {
  queue: string;
  name: string;
  jobId: string;
  data: Record<string, unknown>;
  position: bigint;
}

/** The jobs this event asks for (usually none). Throws when a request event is malformed. */
export function jobsRequestedBy(event: RecordedEvent, rules: readonly DispatchRule[]): PendingJob[] {
  return rules
    .filter((rule) => rule.request === event.type && (rule.needsJob?.(event) ?? true))
    .map((rule) => ({ queue: rule.queue, name: rule.name, jobId: rule.jobId(event), data: rule.payload(event), position: event.position }));
}

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
