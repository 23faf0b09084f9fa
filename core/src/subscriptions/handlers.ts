/**
 * Subscription handlers (issue 13, ADR 037). Subscribing and each renewal are one atomic append:
 * the subscriber → provider transfer of the plan's price (fee 0, settled at once, like a checkout
 * payment) together with the subscription's own event, under the subscription stream's revision.
 * So a period is charged once however requests race, a job re-runs or a process dies.
 */
import { foldEvents, handleCommand, type LoadedState, readState } from '../shared/command-handler.js';
import { AppError } from '../shared/errors.js';
import { WrongExpectedRevisionError } from '../shared/ports/event-store.js';
import { loadPlan, planNotFound } from '../plans/handlers.js';
import { executeTransfer, readWallet, walletAddressOf, type WalletDeps } from '../wallet/handlers.js';
import { mlxFromWire, mlxToWire } from '../wallet/money.js';
import { transferRefusalOf } from '../wallet/refusals.js';
import { isWalletClosed } from '../wallet/state.js';
import type { ChargeRefusal, SubscribedPlan } from './commands.js';
import type { SubscribeInput } from './contracts.js';
import {
  type CancelRefusal,
  type PlanRefusal,
  type RenewalDecision,
  type SubscribeRefusal,
  chargeTransfer,
  decideAnnouncePriceChange,
  decideCancel,
  decideRecordEmail,
  decideRenewal,
  decideSubscribe,
  planRefusal,
} from './decider.js';
import { type CancelledBy, SUBSCRIPTION_ID_PATTERN, type SubscriptionEvent, subscriptionIdOf, subscriptionStream } from './events.js';
import {
  type PlanPrice,
  type PriceConsentDecision,
  type PriceConsentRefusal,
  decideAcceptPrice,
  decideEndForUnacceptedPrice,
} from './price.js';
import { type ResumeRefusal, decideResume } from './resume.js';
import { addMonthsOnBillingDay } from './schedule.js';
import { type SubscriptionState, subscriptionModel } from './state.js';

export type SubscriptionDeps = Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'>;

/** Re-subscriptions of one user to one plan are probed in order; this bounds the probe. */
const GENERATIONS_MAX = 10_000;

export const subscriptionNotFound = () => new AppError('NOT_FOUND', 'errors:subscriptionNotFound');

/** A subscription with its stream revision; undefined when there is none. */
export async function loadSubscription(
  deps: Pick<SubscriptionDeps, 'store'>,
  subscriptionId: string,
): Promise<LoadedState<SubscriptionState> | undefined> {
  if (!SUBSCRIPTION_ID_PATTERN.test(subscriptionId)) return undefined;
  const { state, revision } = await readState(deps.store, subscriptionStream(subscriptionId), subscriptionModel);
  return state ? { state, revision } : undefined;
}

/** The user's newest subscription to the plan (any status) and the next generation number. */
async function newestGeneration(deps: Pick<SubscriptionDeps, 'store'>, planId: string, userId: string) {
  let newest: SubscriptionState | undefined;
  for (let generation = 1; generation <= GENERATIONS_MAX; generation++) {
    const loaded = await loadSubscription(deps, subscriptionIdOf(planId, userId, generation));
    if (!loaded) return { newest, next: generation };
    newest = loaded.state;
  }
  throw new AppError('CONFLICT', 'errors:alreadySubscribed');
}

/** A subscribe refusal as the api answers it. */
function subscribeError(refusal: SubscribeRefusal): AppError {
  switch (refusal.kind) {
    case 'planDeleted':
      return new AppError('CONFLICT', 'errors:planDeleted');
    case 'ownPlan':
      return new AppError('CONFLICT', 'errors:subscribeOwnPlan');
    case 'priceChanged':
      return new AppError('CONFLICT', 'errors:planPriceChanged', {}, { price: mlxToWire(refusal.priceMlx) });
    case 'alreadySubscribed':
      return new AppError('CONFLICT', 'errors:alreadySubscribed');
    default: {
      const never: never = refusal;
      throw new Error(`Unknown refusal ${JSON.stringify(never)}`);
    }
  }
}

/** The plan a user may subscribe to now, or the reason they may not. */
async function subscribablePlan(deps: SubscriptionDeps, userId: string, planId: string) {
  const loaded = await loadPlan(deps, planId);
  if (!loaded) throw planNotFound();
  const { plan } = loaded;
  const subscribed: SubscribedPlan = {
    planId,
    providerUserId: plan.providerUserId,
    name: plan.terms.name,
    priceMlx: mlxFromWire(plan.terms.priceMlx),
    deleted: plan.deletedAt !== undefined,
  };
  const refused: PlanRefusal | undefined = planRefusal(subscribed, userId);
  if (refused) throw subscribeError(refused);
  return { plan, subscribed };
}

/** What a subscription would cost now and when it would renew: what the confirmation shows. */
export async function quoteSubscription(deps: SubscriptionDeps, userId: string, planId: string) {
  const { plan } = await subscribablePlan(deps, userId, planId);
  const now = deps.clock.now();
  return {
    plan,
    chargeNow: now,
    nextChargeAt: addMonthsOnBillingDay(now, 1, now.getUTCDate()),
  };
}

/** Too little MLX for a subscription, in its words, with the wallet's figures. */
function asSubscriptionRefusal(error: unknown): unknown {
  const refusal = transferRefusalOf(error);
  if (refusal?.kind !== 'insufficientFunds') return error;
  return new AppError(
    'CONFLICT',
    'errors:subscriptionInsufficientFunds',
    { subscription_plan_id: 'errors:subscriptionInsufficientFunds' },
    { requiredMlx: mlxToWire(refusal.requiredMlx), availableMlx: mlxToWire(refusal.availableMlx) },
  );
}

async function providerOf(deps: SubscriptionDeps, providerUserId: string): Promise<{ address: string; walletId: string }> {
  const address = await walletAddressOf(deps, providerUserId);
  if (!address) throw new AppError('CONFLICT', 'errors:planProviderUnavailable');
  return { address, walletId: providerUserId };
}

/**
 * Subscribes the user: charges the first period now and opens the subscription, in one atomic
 * append (the subscription stream is the transfer's companion, opened with 'no_stream'). One
 * active subscription per user and plan; the own plan, a deleted plan, a changed price or too
 * little MLX are refused and move nothing. A racing request that opened this generation first
 * makes this one a second subscription: refused as such.
 */
export async function subscribe(
  deps: SubscriptionDeps,
  subscriberUserId: string,
  input: SubscribeInput,
): Promise<{ state: SubscriptionState; position: bigint }> {
  const planId = input.subscription_plan_id;
  const { subscribed: plan } = await subscribablePlan(deps, subscriberUserId, planId);
  const { newest, next } = await newestGeneration(deps, planId, subscriberUserId);
  const subscriptionId = subscriptionIdOf(planId, subscriberUserId, next);
  const decision = decideSubscribe(
    newest,
    {
      type: 'StartSubscription',
      data: {
        subscriptionId,
        generation: next,
        subscriberUserId,
        plan,
        ...(input.expected_price !== undefined ? { expectedPriceMlx: input.expected_price } : {}),
      },
    },
    deps.clock.now(),
  );
  if ('refusal' in decision) throw subscribeError(decision.refusal);
  const { started, chargeMlx } = decision;
  const charge = chargeTransfer(subscriptionId, 1, chargeMlx, await providerOf(deps, plan.providerUserId));
  try {
    const executed = await executeTransfer(deps, subscriberUserId, charge, () => ({
      streamId: subscriptionStream(subscriptionId),
      events: [started],
      expectedRevision: 'no_stream',
    }));
    // No events: the transfer was already made, by a racing request that also opened the stream.
    if (executed.position === undefined) throw subscribeError({ kind: 'alreadySubscribed' });
    const state = foldEvents(subscriptionModel, subscriptionModel.initialState(), [started]);
    if (!state) throw new Error('A started subscription folds to a subscription');
    return { state, position: executed.position };
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) throw subscribeError({ kind: 'alreadySubscribed' });
    throw asSubscriptionRefusal(error);
  }
}

/** A subscription its subscriber or its plan's provider may see; 404 for anyone else. */
export async function readSubscriptionFor(
  deps: Pick<SubscriptionDeps, 'store'>,
  userId: string,
  subscriptionId: string,
): Promise<SubscriptionState> {
  const loaded = await loadSubscription(deps, subscriptionId);
  if (!loaded) throw subscriptionNotFound();
  const { state } = loaded;
  if (state.subscriberUserId !== userId && state.providerUserId !== userId) throw subscriptionNotFound();
  return state;
}

/**
 * Appends what `decide` makes of the subscription through the command pipeline (decided again on
 * a lost race); no events: nothing to append. Answers the subscription as the append left it.
 */
async function changeSubscription(
  deps: Pick<SubscriptionDeps, 'store' | 'clock'>,
  subscriptionId: string,
  decide: (state: SubscriptionState, now: Date) => SubscriptionEvent[],
): Promise<{ state: SubscriptionState; position?: bigint; events: SubscriptionEvent[] }> {
  if (!SUBSCRIPTION_ID_PATTERN.test(subscriptionId)) throw subscriptionNotFound();
  const handled = await handleCommand(deps, subscriptionStream(subscriptionId), subscriptionModel, (state, now) => {
    if (!state) throw subscriptionNotFound();
    return { events: decide(state, now), result: state };
  });
  const state = foldEvents(subscriptionModel, handled.result, handled.events) ?? handled.result;
  return { state, events: handled.events, ...(handled.position !== undefined ? { position: handled.position } : {}) };
}

/** A cancel refusal as the api answers it. */
function cancelError(refusal: CancelRefusal): AppError {
  return refusal.kind === 'notYours'
    ? new AppError('FORBIDDEN', 'errors:subscriptionNotYours')
    : new AppError('CONFLICT', 'errors:subscriptionAlreadyCancelled');
}

/**
 * Cancels at the end of the paid period (at once when past due). The subscriber or the plan's
 * provider may; anyone else gets 403. An already cancelled or ended subscription answers 409.
 */
export function cancelSubscription(deps: SubscriptionDeps, userId: string, subscriptionId: string) {
  return changeSubscription(deps, subscriptionId, (state, now) => {
    const decision = decideCancel(state, { type: 'CancelSubscription', data: { userId } }, now);
    if ('refusal' in decision) throw cancelError(decision.refusal);
    return decision.events;
  });
}

export type RenewalOutcome =
  | { outcome: 'stale' }
  | { outcome: 'notDue'; dueAt: Date }
  | { outcome: 'renewed'; position: bigint; period: number }
  | { outcome: 'failed'; nextAttemptAt: Date }
  | { outcome: 'ended'; reason: CancelledBy };

/** Why the wallet refused a renewal's charge, for the decider; undefined: not a refusal the renewal answers. */
async function chargeRefusalOf(deps: SubscriptionDeps, subscriberUserId: string, error: unknown): Promise<ChargeRefusal | undefined> {
  const refusal = transferRefusalOf(error);
  if (refusal?.kind === 'insufficientFunds') return { kind: 'insufficientFunds' };
  if (refusal?.kind === 'recipientClosed') return { kind: 'providerClosed' };
  if (!(error instanceof AppError)) return undefined;
  // A deleted account's wallet is closed (ADR 042) and refuses to send: the wallet says so by state.
  const { state } = await readWallet(deps, subscriberUserId);
  return isWalletClosed(state) ? { kind: 'subscriberClosed' } : undefined;
}

/**
 * The renewal job's work for one (period, attempt), idempotent (the rules: decideRenewal). A
 * charge is appended by the wallet's transfer, SubscriptionRenewed riding it as its companion
 * (appendWith): a lost race on the subscription stream is decided again by the pipeline. A charge
 * the wallet refuses is decided again with its typed refusal: a failed attempt, or the end.
 */
export async function runRenewal(
  deps: SubscriptionDeps,
  job: { subscriptionId: string; period: number; attempt: number },
): Promise<RenewalOutcome> {
  const loaded = await loadSubscription(deps, job.subscriptionId);
  if (!loaded) return { outcome: 'stale' };
  // Read once: an edit landing after this read cannot charge more than the subscriber agreed to.
  const plan = await currentPlanPrice(deps, loaded.state.planId);
  let chargeError: unknown;
  const renew = (chargeRefused?: ChargeRefusal) =>
    handleCommand(
      deps,
      subscriptionStream(job.subscriptionId),
      subscriptionModel,
      (state, now) => {
        const decision = decideRenewal(
          state,
          { type: 'RenewSubscription', data: { ...job, plan, ...(chargeRefused ? { chargeRefused } : {}) } },
          now,
        );
        return { events: eventsOf(decision), result: decision };
      },
      {
        appendWith: async (appends, { result }, { state }) => {
          if (result.kind !== 'charge' || !state) return lastAppended(await deps.store.appendToStreams(appends));
          const charge = chargeTransfer(state.subscriptionId, result.period, result.priceMlx, await providerOf(deps, state.providerUserId));
          try {
            const executed = await executeTransfer(deps, state.subscriberUserId, charge, () => appends);
            // The subscriber's wallet already holds this period's charge: recorded with its renewal after our read.
            return executed.position === undefined ? 'alreadyRecorded' : { position: executed.position };
          } catch (error) {
            chargeError = error;
            throw error;
          }
        },
      },
    );
  try {
    const handled = await renew();
    const decision = handled.result;
    if (decision.kind === 'charge' && handled.position !== undefined)
      return { outcome: 'renewed', position: handled.position, period: decision.period };
    return renewalOutcome(decision);
  } catch (error) {
    const refusal = error === chargeError ? await chargeRefusalOf(deps, loaded.state.subscriberUserId, error) : undefined;
    if (!refusal) throw error;
    return renewalOutcome((await renew(refusal)).result);
  }
}

function lastAppended(results: { position: bigint }[]): { position: bigint } {
  const last = results.at(-1);
  if (!last) throw new Error('an append answered no result');
  return { position: last.position };
}

const eventsOf = (decision: RenewalDecision): SubscriptionEvent[] => ('events' in decision ? decision.events : []);

function renewalOutcome(decision: RenewalDecision): RenewalOutcome {
  switch (decision.kind) {
    case 'stale':
      return { outcome: 'stale' };
    case 'notDue':
      return { outcome: 'notDue', dueAt: decision.dueAt };
    case 'ended':
      return { outcome: 'ended', reason: decision.reason };
    case 'failed':
      return { outcome: 'failed', nextAttemptAt: decision.nextAttemptAt };
    case 'charge':
      throw new Error('A renewal refused its charge and decided to charge again');
  }
}

/** The refusal of a price consent command as the api answers it. */
function priceConsentError(refusal: PriceConsentRefusal): AppError {
  switch (refusal.kind) {
    case 'notSubscriber':
      return new AppError('FORBIDDEN', 'errors:subscriptionPriceNotYours');
    case 'notProvider':
      return new AppError('FORBIDDEN', 'errors:subscriptionEndNotYours');
    case 'notLive':
      return new AppError('CONFLICT', 'errors:subscriptionAlreadyCancelled');
    case 'noIncreasePending':
      return new AppError('CONFLICT', 'errors:subscriptionNoPriceIncrease');
    case 'staleOffer':
      return new AppError('CONFLICT', 'errors:subscriptionPriceOfferChanged', {}, { price: mlxToWire(refusal.pendingPriceMlx) });
    default: {
      const never: never = refusal;
      throw new Error(`Unknown refusal ${JSON.stringify(never)}`);
    }
  }
}

/** The plan's current price, or undefined once it is deleted (or gone). */
export async function currentPlanPrice(deps: Pick<SubscriptionDeps, 'store'>, planId: string): Promise<PlanPrice> {
  const plan = (await loadPlan(deps, planId))?.plan;
  return { priceMlx: plan && plan.deletedAt === undefined ? mlxFromWire(plan.terms.priceMlx) : undefined };
}

/**
 * Appends what a price consent decider makes of the subscription and its plan's price. The plan
 * is read once: an edit landing after that read cannot hurt the subscriber, who accepts exactly
 * the price they sent, and each renewal still charges no more than the plan's price at the time.
 */
async function appendPriceConsent(
  deps: SubscriptionDeps,
  subscriptionId: string,
  decide: (state: SubscriptionState, plan: { priceMlx: bigint | undefined }, now: Date) => PriceConsentDecision,
) {
  const loaded = await loadSubscription(deps, subscriptionId);
  if (!loaded) throw subscriptionNotFound();
  const plan = await currentPlanPrice(deps, loaded.state.planId);
  return changeSubscription(deps, subscriptionId, (state, now) => {
    const decision = decide(state, plan, now);
    if ('refusal' in decision) throw priceConsentError(decision.refusal);
    return decision.events;
  });
}

/**
 * The subscriber accepts the plan's higher price, exactly the one they saw (ADR 044): from the
 * next renewal on it is charged. Anyone else gets 403; a price that is no longer the one pending
 * gets 409 with the pending one.
 */
export function acceptSubscriptionPrice(deps: SubscriptionDeps, userId: string, subscriptionId: string, seenPriceMlx: bigint) {
  return appendPriceConsent(deps, subscriptionId, (state, plan, now) => decideAcceptPrice(state, { userId, seenPriceMlx, plan, now }));
}

/**
 * The provider ends, at the end of its paid period, a subscription whose subscriber has not
 * accepted the plan's higher price (ADR 044). Anyone else gets 403; without a pending increase 409.
 */
export function endSubscriptionForUnacceptedPrice(deps: SubscriptionDeps, userId: string, subscriptionId: string) {
  return appendPriceConsent(deps, subscriptionId, (state, plan, now) => decideEndForUnacceptedPrice(state, { userId, plan, now }));
}

/** The refusal of a resume as the api answers it. */
function resumeError(refusal: ResumeRefusal): AppError {
  switch (refusal.kind) {
    case 'notSubscriber':
      return new AppError('FORBIDDEN', 'errors:subscriptionResumeNotYours');
    case 'notCancelled':
      return new AppError('CONFLICT', 'errors:subscriptionNotCancelled');
    case 'ended':
      return new AppError('CONFLICT', 'errors:subscriptionResumeTooLate');
    case 'notCancelledBySubscriber':
      return new AppError('CONFLICT', 'errors:subscriptionResumeNotByYou');
    case 'planDeleted':
      return new AppError('CONFLICT', 'errors:planDeleted');
    default: {
      const never: never = refusal;
      throw new Error(`Unknown refusal ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The subscriber takes back their own cancellation before the paid period ends (ADR 059); the
 * open renewal then charges at the end of the period, at the agreed price, as it would have.
 * Someone else's subscription is 404 for a stranger, 403 for its provider.
 */
export async function resumeSubscription(deps: SubscriptionDeps, userId: string, subscriptionId: string) {
  const loaded = await loadSubscription(deps, subscriptionId);
  if (!loaded) throw subscriptionNotFound();
  const { subscriberUserId, providerUserId, planId } = loaded.state;
  if (userId !== subscriberUserId && userId !== providerUserId) throw subscriptionNotFound();
  const plan = await currentPlanPrice(deps, planId);
  return changeSubscription(deps, subscriptionId, (state, now) => {
    const decision = decideResume(state, { userId, plan, now });
    if ('refusal' in decision) throw resumeError(decision.refusal);
    return decision.events;
  });
}

/** Records that a subscriber was told of a plan's price change (once per plan edit). */
export function announcePriceChange(
  deps: SubscriptionDeps,
  subscriptionId: string,
  change: { planRevision: string; previousPriceMlx: string; priceMlx: string },
) {
  return changeSubscription(deps, subscriptionId, (state, now) =>
    decideAnnouncePriceChange(state, { type: 'AnnouncePriceChange', data: change }, now),
  );
}

/** Records an e-mail as sent, once per e-mail id. */
export function recordSubscriptionEmail(
  deps: Pick<SubscriptionDeps, 'store' | 'clock'>,
  subscriptionId: string,
  emailId: string,
  messageId: string,
) {
  return changeSubscription(deps, subscriptionId, (state, now) =>
    decideRecordEmail(state, { type: 'RecordSubscriptionEmail', data: { emailId, messageId } }, now),
  );
}
