/**
 * The command pipeline (ADR 063) for a decision that needs, beside the folded stream, what only
 * I/O can tell about that very state: another stream's holder or revision, a password checked
 * against the hash just read, recovery codes hashed once a code matched. `gather` does that I/O
 * and `decide` stays pure on its answer. The evidence is gathered again on every attempt, for the
 * state that attempt decides on, so a decision after a lost race never rests on what was true
 * before it.
 */
import {
  type CommandDeps,
  type CommandOptions,
  type Decision,
  type Handled,
  type LoadedState,
  type StreamModel,
  handleCommand,
  readState,
} from './command-handler.js';
import type { NewEvent, StreamAppend } from './ports/event-store.js';

export interface EvidenceOptions<State, Event, Evidence, Result>
  extends Pick<CommandOptions<State, Event, Result>, 'companions' | 'onAppended' | 'onAppendFailed'> {
  /** Other streams the command decided on with its evidence (a claim's revision), appended in the same atomic call. */
  ownAppends?: (decision: Decision<Event, Result>, loaded: LoadedState<State>, evidence: Evidence) => StreamAppend[];
}

export async function handleCommandWithEvidence<State, Event extends NewEvent, Evidence, Result>(
  deps: CommandDeps,
  streamId: string,
  model: StreamModel<State, Event>,
  gather: (state: State) => Promise<Evidence>,
  decide: (state: State, evidence: Evidence, now: Date) => Decision<Event, Result>,
  options: EvidenceOptions<State, Event, Evidence, Result> = {},
): Promise<Handled<State, Event, Result> & { evidence: Evidence }> {
  let gathered: { state: State; evidence: Evidence } | undefined;
  const evidenceFor = (state: State): Evidence => {
    // The pipeline decides on the state its load answered: anything else is a programming error.
    if (!gathered || gathered.state !== state) throw new Error('Evidence was gathered for another state');
    return gathered.evidence;
  };
  const { ownAppends, ...rest } = options;
  const handled = await handleCommand<State, Event, Result>(deps, streamId, model, (state, now) => decide(state, evidenceFor(state), now), {
    ...rest,
    load: async () => {
      const loaded = await readState(deps.store, streamId, model);
      gathered = { state: loaded.state, evidence: await gather(loaded.state) };
      return loaded;
    },
    ...(ownAppends ? { ownAppends: (decision, loaded) => ownAppends(decision, loaded, evidenceFor(loaded.state)) } : {}),
  });
  return { ...handled, evidence: evidenceFor(handled.state) };
}
