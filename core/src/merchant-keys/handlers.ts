/**
 * API key command handlers: load the merchant's key stream, decide, and append the merchant's
 * event together with the claim streams it touches in one atomic multi-stream append (ADR 018),
 * so a key is never usable without being recorded, nor recorded as gone while still usable.
 */
import type { Clock } from '../shared/clock.js';
import { handleCommandWithEvidence } from '../shared/command-evidence.js';
import { readState } from '../shared/command-handler.js';
import type { ExpectedRevision, EventStore, StreamAppend } from '../shared/ports/event-store.js';
import type { QuernMode } from '../shared/quern-mode.js';
import { decideDelete, decideGenerate, type KeyDecision } from './decider.js';
import { type MerchantKeyEvent, merchantKeyClaimStream, merchantKeysStream } from './events.js';
import { formatApiKey, hashApiKey, isApiKeyFormat, keyDisplayParts, maskApiKey } from './key-format.js';
import { apiKeyClaimModel, merchantKeysModel, type MerchantKeysState } from './state.js';

export interface MerchantKeyDeps {
  store: EventStore;
  clock: Clock;
  /** A fresh UUID per call. */
  newId: () => string;
}

/** The claim streams a decision touches, appended with the merchant's event in one atomic call. */
function claimAppends(decision: KeyDecision<MerchantKeyEvent>, currentClaimRevision: ExpectedRevision | undefined): StreamAppend[] {
  const appends: StreamAppend[] = [];
  if (decision.revoke) {
    // Only the current key is revoked, and its claim's revision was read with the state decided on.
    if (currentClaimRevision === undefined) throw new Error('A revoked key is the current one, whose claim was read');
    appends.push({
      streamId: merchantKeyClaimStream(decision.revoke.hash),
      events: [decision.revoke.event],
      expectedRevision: currentClaimRevision,
    });
  }
  if (decision.claim)
    appends.push({ streamId: merchantKeyClaimStream(decision.claim.hash), events: [decision.claim.event], expectedRevision: 'no_stream' });
  return appends;
}

/**
 * Decides and appends through the command pipeline; the claim streams are the command's own, so
 * two tabs pressing Generate at once make the loser decide again on the winner's key.
 */
async function changeKeys(
  deps: MerchantKeyDeps,
  userId: string,
  decide: (state: MerchantKeysState, now: Date) => KeyDecision<MerchantKeyEvent>,
): Promise<void> {
  await handleCommandWithEvidence(
    deps,
    merchantKeysStream(userId),
    merchantKeysModel,
    async (state) =>
      state.current ? (await readState(deps.store, merchantKeyClaimStream(state.current.hash), apiKeyClaimModel)).revision : undefined,
    (state, _currentClaimRevision, now) => {
      const decision = decide(state, now);
      return { events: [decision.merchantEvent], result: decision };
    },
    { ownAppends: ({ result }, _loaded, currentClaimRevision) => claimAppends(result, currentClaimRevision) },
  );
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
  await changeKeys(deps, userId, (state, now) => decideGenerate(state, { userId, keyId, hash, now, ...parts }));
  return { apiKey, masked: maskApiKey(parts) };
}

export async function deleteApiKey(deps: MerchantKeyDeps, userId: string): Promise<void> {
  await changeKeys(deps, userId, (state, now) => decideDelete(state, { userId, now }));
}

/** The merchant's current key, masked, or null when there is none. */
export async function currentMaskedApiKey(deps: Pick<MerchantKeyDeps, 'store'>, userId: string): Promise<string | null> {
  const { state } = await readState(deps.store, merchantKeysStream(userId), merchantKeysModel);
  return state.current ? maskApiKey(state.current) : null;
}

/**
 * The merchant a presented key authenticates, or undefined (malformed, unknown, replaced or
 * deleted). One read of the key's own claim stream: strongly consistent, whatever the number of
 * merchants.
 */
export async function findMerchantByApiKey(deps: Pick<MerchantKeyDeps, 'store'>, presented: string): Promise<string | undefined> {
  if (!isApiKeyFormat(presented)) return undefined;
  const { state } = await readState(deps.store, merchantKeyClaimStream(hashApiKey(presented)), apiKeyClaimModel);
  return state.userId;
}
