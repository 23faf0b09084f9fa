/**
 * Subscription handlers (issue 13, ADR 037). Subscribing and each renewal are one atomic append:
 * the subscriber → provider transfer of the plan's price (fee 0, settled at once, like a checkout
 * payment) together with the subscription's own event, under the subscription stream's revision.
 * So a period is charged once however requests race, a job re-runs or a process dies.
 */
import { AppError, isAppError } from '../shared/errors.js';
import { WrongExpectedRevisionError, type ExpectedRevision, type NewEvent } from '../shared/ports/event-store.js';
import { loadPlan, planNotFound } from '../plans/handlers.js';
import type { ReserveTransfer } from '../wallet/commands.js';
import { executeTransfer, walletAddressOf, type WalletDeps } from '../wallet/handlers.js';
import { mlxFromWire, mlxToWire } from '../wallet/money.js';
import type { SubscribeInput } from './contracts.js';
import {
  type CancelledBy,
  SUBSCRIPTION_ID_PATTERN,
  type SubscriptionEvent,
  type SubscriptionStarted,
  subscriptionChargeTransferId,
  subscriptionIdOf,
  subscriptionStream,
  toSubscriptionEvent,
} from './events.js';
import {
  type PriceConsentDecision,
  type PriceConsentRefusal,
  decideAcceptPrice,
  decideEndForUnacceptedPrice,
  renewalPriceMlx,
} from './price.js';
import { type ResumeRefusal, decideResume } from './resume.js';
import { CHARGE_ATTEMPTS_MAX, addMonthsOnBillingDay, attemptDueAt, paidThroughAfter } from './schedule.js';
import { cancellationEvents, evolveSubscription, openRenewal, type SubscriptionState } from './state.js';

export type SubscriptionDeps = Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents'>;

const ATTEMPTS_MAX = 8;
/** Re-subscriptions of one user to one plan are probed in order; this bounds the probe. */
const GENERATIONS_MAX = 10_000;

const asNew = (events: SubscriptionEvent[]): NewEvent[] => events as unknown as NewEvent[];
export const subscriptionNotFound = () => new AppError('NOT_FOUND', 'errors:subscriptionNotFound');

/** A subscription with its stream revision; undefined when there is none. */
export async function loadSubscription(
  deps: Pick<SubscriptionDeps, 'store'>,
  subscriptionId: string,
): Promise<{ state: SubscriptionState; revision: ExpectedRevision } | undefined> {
  if (!SUBSCRIPTION_ID_PATTERN.test(subscriptionId)) return undefined;
  const records = await deps.store.readStream(subscriptionStream(subscriptionId));
  let state: SubscriptionState | undefined;
  for (const record of records) {
    const event = toSubscriptionEvent(record);
    if (!event) throw new Error(`Unreadable ${record.type} at ${subscriptionStream(subscriptionId)}@${record.revision}`);
    state = evolveSubscription(state, event, record.revision);
  }
  return state ? { state, revision: state.revision } : undefined;
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

/** The plan a user may subscribe to now, or the reason they may not. */
async function subscribablePlan(deps: SubscriptionDeps, userId: string, planId: string) {
  const loaded = await loadPlan(deps, planId);
  if (!loaded) throw planNotFound();
  const { plan } = loaded;
  if (plan.deletedAt !== undefined) throw new AppError('CONFLICT', 'errors:planDeleted');
  if (plan.providerUserId === userId) throw new AppError('CONFLICT', 'errors:subscribeOwnPlan');
  return plan;
}

/** What a subscription would cost now and when it would renew: what the confirmation shows. */
export async function quoteSubscription(deps: SubscriptionDeps, userId: string, planId: string) {
  const plan = await subscribablePlan(deps, userId, planId);
  const now = deps.clock.now();
  return {
    plan,
    chargeNow: now,
    nextChargeAt: addMonthsOnBillingDay(now, 1, now.getUTCDate()),
  };
}

/** The insufficient-funds refusal in a subscription's words, with the same figures. */
function asSubscriptionRefusal(error: unknown): unknown {
  if (isAppError(error) && error.messageKey === 'errors:insufficientFunds')
    return new AppError(
      'CONFLICT',
      'errors:subscriptionInsufficientFunds',
      { subscription_plan_id: 'errors:subscriptionInsufficientFunds' },
      error.params,
    );
  return error;
}

function chargeCommand(subscriptionId: string, period: number, priceMlx: bigint, toAddress: string, toWalletId: string): ReserveTransfer {
  return {
    type: 'ReserveTransfer',
    data: {
      transferId: subscriptionChargeTransferId(subscriptionId, period),
      toAddress,
      toWalletId,
      amountMlx: priceMlx,
      feeMlx: 0n,
      reference: { kind: 'subscriptionCharge', subscriptionId, period },
    },
  };
}

async function providerAddress(deps: SubscriptionDeps, providerUserId: string): Promise<string> {
  const address = await walletAddressOf(deps, providerUserId);
  if (!address) throw new AppError('CONFLICT', 'errors:planProviderUnavailable');
  return address;
}

/**
 * Subscribes the user: charges the first period now and opens the subscription. One active
 * subscription per user and plan; the own plan, a deleted plan, a changed price or too little
 * MLX are refused and move nothing.
 */
export async function subscribe(
  deps: SubscriptionDeps,
  subscriberUserId: string,
  input: SubscribeInput,
): Promise<{ state: SubscriptionState; position: bigint }> {
  const planId = input.subscription_plan_id;
  for (let attempt = 1; attempt <= ATTEMPTS_MAX; attempt++) {
    const plan = await subscribablePlan(deps, subscriberUserId, planId);
    const priceMlx = mlxFromWire(plan.terms.priceMlx);
    if (input.expected_price !== undefined && input.expected_price !== priceMlx)
      throw new AppError('CONFLICT', 'errors:planPriceChanged', {}, { price: plan.terms.priceMlx });
    const { newest, next } = await newestGeneration(deps, planId, subscriberUserId);
    if (newest && !newest.ended) throw new AppError('CONFLICT', 'errors:alreadySubscribed');
    const subscriptionId = subscriptionIdOf(planId, subscriberUserId, next);
    const now = deps.clock.now();
    const billingDay = now.getUTCDate();
    const started: SubscriptionStarted = {
      type: 'SubscriptionStarted',
      data: {
        subscriptionId,
        period: 1,
        attempt: 1,
        priceMlx: plan.terms.priceMlx,
        transferId: subscriptionChargeTransferId(subscriptionId, 1),
        chargedAt: now.toISOString(),
        paidThrough: addMonthsOnBillingDay(now, 1, billingDay).toISOString(),
        billingDay,
        planId,
        providerUserId: plan.providerUserId,
        subscriberUserId,
        generation: next,
        planName: plan.terms.name,
      },
    };
    const command = chargeCommand(subscriptionId, 1, priceMlx, await providerAddress(deps, plan.providerUserId), plan.providerUserId);
    try {
      const executed = await executeTransfer(deps, subscriberUserId, command, () => ({
        streamId: subscriptionStream(subscriptionId),
        events: asNew([started]),
        expectedRevision: 'no_stream',
      }));
      // No events: the transfer was already made, by a racing request that also opened the stream.
      if (executed.position === undefined) continue;
      const state = evolveSubscription(undefined, started, 0n);
      if (!state) throw new Error('A started subscription folds to a subscription');
      return { state, position: executed.position };
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) continue;
      throw asSubscriptionRefusal(error);
    }
  }
  throw new AppError('CONCURRENCY', 'errors:busy');
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

/** Appends what `decide` makes of the current state, retried on a lost race; undefined: nothing to append. */
async function appendDecided(
  deps: Pick<SubscriptionDeps, 'store'>,
  subscriptionId: string,
  decide: (state: SubscriptionState) => SubscriptionEvent[] | undefined,
): Promise<{ state: SubscriptionState; position?: bigint; events: SubscriptionEvent[] }> {
  for (let attempt = 1; attempt <= ATTEMPTS_MAX; attempt++) {
    const loaded = await loadSubscription(deps, subscriptionId);
    if (!loaded) throw subscriptionNotFound();
    const events = decide(loaded.state);
    if (!events || events.length === 0) return { state: loaded.state, events: [] };
    try {
      const appended = await deps.store.append(subscriptionStream(subscriptionId), asNew(events), loaded.revision);
      let state: SubscriptionState | undefined = loaded.state;
      let revision = typeof loaded.revision === 'bigint' ? loaded.revision : -1n;
      for (const event of events) state = evolveSubscription(state, event, ++revision);
      return { state: state ?? loaded.state, position: appended.position, events };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
  throw new AppError('CONCURRENCY', 'errors:busy');
}

/**
 * Cancels at the end of the paid period (at once when past due). The subscriber or the plan's
 * provider may; anyone else gets 403. An already cancelled or ended subscription answers 409.
 */
export async function cancelSubscription(deps: SubscriptionDeps, userId: string, subscriptionId: string) {
  const loaded = await loadSubscription(deps, subscriptionId);
  if (!loaded) throw subscriptionNotFound();
  const { subscriberUserId, providerUserId } = loaded.state;
  if (userId !== subscriberUserId && userId !== providerUserId) throw new AppError('FORBIDDEN', 'errors:subscriptionNotYours');
  const by: CancelledBy = userId === subscriberUserId ? 'subscriber' : 'provider';
  return appendDecided(deps, subscriptionId, (state) => {
    if (state.cancellation || state.ended) throw new AppError('CONFLICT', 'errors:subscriptionAlreadyCancelled');
    return cancellationEvents(state, by, deps.clock.now(), userId);
  });
}

/**
 * Deletion deletes the provider's plans and cancels the subscriber's subscriptions first; these
 * end a renewal that still meets a closed wallet (a plan the read model had not listed yet).
 */
const closedAccountEnding: Readonly<Record<string, CancelledBy>> = {
  'errors:recipientClosed': 'planDeleted',
  'errors:accountDeleted': 'subscriber',
};

export type RenewalOutcome =
  | { outcome: 'stale' }
  | { outcome: 'notDue'; dueAt: Date }
  | { outcome: 'renewed'; position: bigint; period: number }
  | { outcome: 'failed'; nextAttemptAt: Date }
  | { outcome: 'ended'; reason: CancelledBy };

/**
 * The renewal job's work for one (period, attempt), idempotent: a pair that is no longer open
 * (charged, failed or ended already) is 'stale'; before its time it is 'notDue'. Otherwise it
 * ends a cancelled subscription or one whose plan was deleted, or charges the plan's current
 * price but never more than the subscriber agreed to (ADR 044), or records the failure (the fourth cancels: 'unpaid').
 */
export async function runRenewal(
  deps: SubscriptionDeps,
  job: { subscriptionId: string; period: number; attempt: number },
): Promise<RenewalOutcome> {
  for (let attempt = 1; attempt <= ATTEMPTS_MAX; attempt++) {
    const loaded = await loadSubscription(deps, job.subscriptionId);
    if (!loaded) return { outcome: 'stale' };
    const { state, revision } = loaded;
    const open = openRenewal(state);
    if (!open || open.period !== job.period || open.attempt !== job.attempt) return { outcome: 'stale' };
    const now = deps.clock.now();
    if (now < open.dueAt) return { outcome: 'notDue', dueAt: open.dueAt };
    const append = async (events: SubscriptionEvent[]) =>
      deps.store.append(subscriptionStream(state.subscriptionId), asNew(events), revision);
    const end = (reason: CancelledBy): SubscriptionEvent => ({
      type: 'SubscriptionEnded',
      data: { subscriptionId: state.subscriptionId, period: open.period, attempt: open.attempt, reason, endedAt: now.toISOString() },
    });
    try {
      if (state.cancellation) {
        await append([end(state.cancellation.by)]);
        return { outcome: 'ended', reason: state.cancellation.by };
      }
      const plan = (await loadPlan(deps, state.planId))?.plan;
      if (!plan || plan.deletedAt !== undefined) {
        await append(cancellationEvents(state, 'planDeleted', now));
        return { outcome: 'ended', reason: 'planDeleted' };
      }
      // Never more than the subscriber agreed to (ADR 044): a higher plan price waits for consent.
      const priceMlx = renewalPriceMlx(mlxFromWire(state.agreedPriceMlx), mlxFromWire(plan.terms.priceMlx));
      const dueAt = attemptDueAt(new Date(state.paidThrough), 1);
      const { paidThrough, billingDay } = paidThroughAfter({ attempt: open.attempt, dueAt, chargedAt: now, billingDay: state.billingDay });
      const renewed: SubscriptionEvent = {
        type: 'SubscriptionRenewed',
        data: {
          subscriptionId: state.subscriptionId,
          period: open.period,
          attempt: open.attempt,
          priceMlx: mlxToWire(priceMlx),
          transferId: subscriptionChargeTransferId(state.subscriptionId, open.period),
          chargedAt: now.toISOString(),
          paidThrough: paidThrough.toISOString(),
          billingDay,
        },
      };
      const command = chargeCommand(
        state.subscriptionId,
        open.period,
        priceMlx,
        await providerAddress(deps, state.providerUserId),
        state.providerUserId,
      );
      try {
        const executed = await executeTransfer(deps, state.subscriberUserId, command, () => ({
          streamId: subscriptionStream(state.subscriptionId),
          events: asNew([renewed]),
          expectedRevision: revision,
        }));
        if (executed.position === undefined) continue;
        return { outcome: 'renewed', position: executed.position, period: open.period };
      } catch (error) {
        // A deleted account's wallet is closed (ADR 042): its plans and subscriptions end.
        const closedBy = isAppError(error) ? closedAccountEnding[error.messageKey] : undefined;
        if (closedBy) {
          await append(cancellationEvents(state, closedBy, now));
          return { outcome: 'ended', reason: closedBy };
        }
        if (!(isAppError(error) && error.messageKey === 'errors:insufficientFunds')) throw error;
      }
      if (open.attempt >= CHARGE_ATTEMPTS_MAX) {
        await append(cancellationEvents({ ...state, failedAttempts: Math.max(1, state.failedAttempts) }, 'unpaid', now));
        return { outcome: 'ended', reason: 'unpaid' };
      }
      const nextAttemptAt = attemptDueAt(dueAt, open.attempt + 1);
      await append([
        {
          type: 'SubscriptionChargeFailed',
          data: {
            subscriptionId: state.subscriptionId,
            period: open.period,
            attempt: open.attempt,
            priceMlx: mlxToWire(priceMlx),
            reason: 'insufficientFunds',
            failedAt: now.toISOString(),
            nextAttemptAt: nextAttemptAt.toISOString(),
          },
        },
      ]);
      return { outcome: 'failed', nextAttemptAt };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
  throw new AppError('CONCURRENCY', 'errors:busy');
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
export async function currentPlanPrice(deps: Pick<SubscriptionDeps, 'store'>, planId: string): Promise<{ priceMlx: bigint | undefined }> {
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
  return appendDecided(deps, subscriptionId, (state) => {
    const decision = decide(state, plan, deps.clock.now());
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
  return appendDecided(deps, subscriptionId, (state) => {
    const decision = decideResume(state, { userId, plan, now: deps.clock.now() });
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
  return appendDecided(deps, subscriptionId, (state) => {
    if (state.ended || state.cancellation || state.announcedPlanRevisions.includes(change.planRevision)) return undefined;
    return [
      {
        type: 'SubscriptionPriceChangeAnnounced',
        data: { subscriptionId, ...change, effectiveFrom: state.paidThrough, announcedAt: deps.clock.now().toISOString() },
      },
    ];
  });
}

/** Records an e-mail as sent, once per e-mail id. */
export function recordSubscriptionEmail(deps: SubscriptionDeps, subscriptionId: string, emailId: string, messageId: string) {
  return appendDecided(deps, subscriptionId, (state) =>
    state.emailsSent.includes(emailId)
      ? undefined
      : [{ type: 'SubscriptionEmailSent', data: { subscriptionId, emailId, messageId, sentAt: deps.clock.now().toISOString() } }],
  );
}
