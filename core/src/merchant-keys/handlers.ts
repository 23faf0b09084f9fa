/**
 * API key command handlers: load the merchant's key stream, decide, and append the merchant's
 * event together with the claim streams it touches in one atomic multi-stream append (ADR 018),
 * so a key is never usable without being recorded, nor recorded as gone while still usable.
 */
import type { Clock } from '../shared/clock.js';
import type { QuernMode } from '../shared/quern-mode.js';
import {
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
  type StreamAppend,
  WrongExpectedRevisionError,
} from '../shared/ports/event-store.js';
import { decideDelete, decideGenerate, type KeyDecision } from './decider.js';
import { type ApiKeyClaimEvent, type MerchantKeyEvent, merchantKeyClaimStream, merchantKeysStream } from './events.js';
import { formatApiKey, hashApiKey, isApiKeyFormat, keyDisplayParts, maskApiKey } from './key-format.js';
import { type ApiKeyClaimState, evolveApiKeyClaim, evolveMerchantKeys, type MerchantKeysState } from './state.js';

export interface MerchantKeyDeps {
  store: EventStore;
  clock: Clock;
  /** A fresh UUID per call. */
  newId: () => string;
}

/** Two tabs pressing Generate at once: the loser decides again on the winner's key. */
const APPEND_ATTEMPTS_MAX = 3;

const revisionOf = (events: RecordedEvent[]): ExpectedRevision =>
  events.length === 0 ? 'no_stream' : (events[events.length - 1] as RecordedEvent).revision;

async function loadMerchantKeys(store: EventStore, userId: string) {
  const events = await store.readStream(merchantKeysStream(userId));
  const state = events.reduce<MerchantKeysState>((s, e) => evolveMerchantKeys(s, e as unknown as MerchantKeyEvent), {});
  return { state, revision: revisionOf(events) };
}

async function loadClaim(store: EventStore, hash: string) {
  const events = await store.readStream(merchantKeyClaimStream(hash));
  const state = events.reduce<ApiKeyClaimState>((s, e) => evolveApiKeyClaim(s, e as unknown as ApiKeyClaimEvent), {});
  return { state, revision: revisionOf(events) };
}

async function appendDecision(
  store: EventStore,
  userId: string,
  revision: ExpectedRevision,
  decision: KeyDecision<MerchantKeyEvent>,
): Promise<void> {
  const appends: StreamAppend[] = [
    { streamId: merchantKeysStream(userId), events: [decision.merchantEvent as never], expectedRevision: revision },
  ];
  if (decision.revoke) {
    const claim = await loadClaim(store, decision.revoke.hash);
    appends.push({
      streamId: merchantKeyClaimStream(decision.revoke.hash),
      events: [decision.revoke.event as never],
      expectedRevision: claim.revision,
    });
  }
  if (decision.claim)
    appends.push({
      streamId: merchantKeyClaimStream(decision.claim.hash),
      events: [decision.claim.event as never],
      expectedRevision: 'no_stream',
    });
  await store.appendToStreams(appends);
}

/** Decides and appends, deciding again when a concurrent key change won the race. */
async function changeKeys(
  deps: MerchantKeyDeps,
  userId: string,
  decide: (state: MerchantKeysState) => KeyDecision<MerchantKeyEvent>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadMerchantKeys(deps.store, userId);
    try {
      await appendDecision(deps.store, userId, revision, decide(state));
      return;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= APPEND_ATTEMPTS_MAX) throw error;
    }
  }
}

/**
 * Generates the merchant's key of `mode` (qk_test_ in a sandbox, qk_live_ in live) from
 * `randomBytes` (32 of them, from the caller's CSPRNG). The full key is returned here and only
 * here: the log keeps its hash and display parts.
 */
export async function generateApiKey(
  deps: MerchantKeyDeps,
  userId: string,
  randomBytes: Uint8Array,
  mode: QuernMode,
): Promise<{ apiKey: string; masked: string }> {
  const apiKey = formatApiKey(randomBytes, mode);
  const parts = keyDisplayParts(apiKey);
  const keyId = deps.newId();
  const hash = hashApiKey(apiKey);
  await changeKeys(deps, userId, (state) => decideGenerate(state, { userId, keyId, hash, now: deps.clock.now(), ...parts }));
  return { apiKey, masked: maskApiKey(parts) };
}

export async function deleteApiKey(deps: MerchantKeyDeps, userId: string): Promise<void> {
  await changeKeys(deps, userId, (state) => decideDelete(state, { userId, now: deps.clock.now() }));
}

/** The merchant's current key, masked, or null when there is none. */
export async function currentMaskedApiKey(deps: Pick<MerchantKeyDeps, 'store'>, userId: string): Promise<string | null> {
  const { state } = await loadMerchantKeys(deps.store, userId);
  return state.current ? maskApiKey(state.current) : null;
}

/**
 * The merchant a presented key authenticates, or undefined (malformed, unknown, replaced or
 * deleted). One read of the key's own claim stream: strongly consistent, whatever the number of
 * merchants.
 */
export async function findMerchantByApiKey(deps: Pick<MerchantKeyDeps, 'store'>, presented: string): Promise<string | undefined> {
  if (!isApiKeyFormat(presented)) return undefined;
  const { state } = await loadClaim(deps.store, hashApiKey(presented));
  return state.userId;
}
