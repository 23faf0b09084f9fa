/**
 * Subscriptions as the api offers them (issue 13, ADR 037): the quote the confirmation shows,
 * subscribe (charges the first period at once), the user's list and one subscription with every
 * charge, cancel (by the subscriber or the plan's provider), and price consent: the subscriber
 * accepts a higher price, or the provider ends the subscription at the end of its period (ADR
 * 044). Charges move money, so the wallet read models are told whose balances moved.
 */
import { billingText, formatLongDate, type Language } from '@quern/core/i18n';
import {
  acceptSubscriptionPrice,
  type AcceptPriceInput,
  cancelSubscription,
  currentPlanPrice,
  endSubscriptionForUnacceptedPrice,
  quoteSubscription,
  readSubscriptionFor,
  resumeSubscription,
  type SubscribeInput,
  type SubscribeQuoteOutput,
  subscribe,
  type SubscriptionDeps,
  type SubscriptionOutput,
  type SubscriptionState,
  toSubscriptionOutput,
  loadSubscription,
} from '@quern/core/subscriptions';
import { formatMlx, mlxFromWire } from '@quern/core/wallet';
import { getUser, pageSubscriptionIdsOfSubscriber } from '@quern/projections';
import { type ListPage, nextCursor, pageRequest } from '@quern/core/plans';
import type { Redis } from 'ioredis';

export interface SubscriptionServiceDeps {
  core: SubscriptionDeps;
  redis: Redis;
  noteWrite?: (userId: string, position: bigint) => void;
  awaitOwnWrites?: (userId: string) => Promise<void>;
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;

const longDate = (iso: string, language: Language): string => formatLongDate(iso, language, { timeZone: 'UTC' });

export function createSubscriptionService(deps: SubscriptionServiceDeps) {
  const { core } = deps;
  /** The subscription with its plan's current price, so a higher price waiting for consent shows. */
  // It also names the merchant (issue 25): the provider's username, left out when the account is gone.
  const outputOf = async (state: SubscriptionState): Promise<SubscriptionOutput> => {
    const [price, provider] = await Promise.all([currentPlanPrice(core, state.planId), getUser(deps.redis, state.providerUserId)]);
    const output = toSubscriptionOutput(state, price);
    return provider?.username ? { ...output, provider_username: provider.username } : output;
  };
  const noteBoth = (state: SubscriptionState, position: bigint | undefined) => {
    if (position === undefined) return;
    deps.noteWrite?.(state.subscriberUserId, position);
    deps.noteWrite?.(state.providerUserId, position);
  };
  return {
    async quote(userId: string, planId: string): Promise<SubscribeQuoteOutput> {
      const { plan, chargeNow, nextChargeAt } = await quoteSubscription(core, userId, planId);
      return {
        plan_id: plan.planId,
        price: Number(plan.terms.priceMlx),
        currency: 'mlx',
        duration: 'monthly',
        charge_now: chargeNow.toISOString(),
        next_charge_at: nextChargeAt.toISOString(),
      };
    },

    async create(userId: string, input: SubscribeInput, language: Language): Promise<{ message: string; content: SubscriptionOutput }> {
      const { state, position } = await subscribe(core, userId, input);
      deps.noteWrite?.(userId, position);
      deps.noteWrite?.(state.providerUserId, position);
      const content = await outputOf(state);
      const price = formatMlx(mlxFromWire(content.price), language);
      return { message: billingText('subscribed', language, { price, date: longDate(state.paidThrough, language) }), content };
    },

    /** The user's own subscriptions (as subscriber), newest first, a page at a time (ADR 057), each read from its stream. */
    async mine(userId: string, page?: ListPage): Promise<{ content: SubscriptionOutput[]; next_cursor: string | null }> {
      await deps.awaitOwnWrites?.(userId);
      const { ids, next } = await pageSubscriptionIdsOfSubscriber(deps.redis, userId, pageRequest(page));
      const loaded = await Promise.all(ids.map((id) => loadSubscription(core, id)));
      const own = loaded.flatMap((l) => (l && l.state.subscriberUserId === userId ? [l.state] : []));
      return { content: await Promise.all(own.map(outputOf)), next_cursor: nextCursor(next) };
    },

    async get(userId: string, subscriptionId: string): Promise<{ content: SubscriptionOutput }> {
      return { content: await outputOf(await readSubscriptionFor(core, userId, subscriptionId)) };
    },

    async cancel(userId: string, subscriptionId: string, language: Language): Promise<{ message: string; content: SubscriptionOutput }> {
      const { state, position } = await cancelSubscription(core, userId, subscriptionId);
      noteBoth(state, position);
      const content = await outputOf(state);
      const message =
        content.status === 'ended'
          ? billingText('subscriptionEnded', language)
          : billingText('subscriptionCancelled', language, { date: longDate(content.ends_at ?? state.paidThrough, language) });
      return { message, content };
    },

    /** The subscriber takes back their cancellation before the paid period ends (ADR 059). */
    async resume(userId: string, subscriptionId: string, language: Language): Promise<{ message: string; content: SubscriptionOutput }> {
      const { state, position } = await resumeSubscription(core, userId, subscriptionId);
      noteBoth(state, position);
      const content = await outputOf(state);
      const price = formatMlx(mlxFromWire(content.agreed_price), language);
      const date = longDate(content.next_charge_at ?? state.paidThrough, language);
      return { message: billingText('subscriptionResumed', language, { price, date }), content };
    },

    /** The subscriber accepts the higher price they saw (ADR 044); it is charged from the next renewal. */
    async acceptPrice(
      userId: string,
      input: AcceptPriceInput,
      language: Language,
    ): Promise<{ message: string; content: SubscriptionOutput }> {
      const { state, position } = await acceptSubscriptionPrice(core, userId, input.id, input.price);
      noteBoth(state, position);
      const content = await outputOf(state);
      const price = formatMlx(mlxFromWire(content.agreed_price), language);
      const date = longDate(content.next_charge_at ?? state.paidThrough, language);
      return { message: billingText('subscriptionPriceAccepted', language, { price, date }), content };
    },

    /** The provider ends, at the end of its paid period, a subscription whose higher price was not accepted (ADR 044). */
    async endForPrice(
      userId: string,
      subscriptionId: string,
      language: Language,
    ): Promise<{ message: string; content: SubscriptionOutput }> {
      const { state, position } = await endSubscriptionForUnacceptedPrice(core, userId, subscriptionId);
      noteBoth(state, position);
      const content = await outputOf(state);
      const message =
        content.status === 'ended'
          ? billingText('subscriptionEnded', language)
          : billingText('subscriptionEndsForPrice', language, { date: longDate(content.ends_at ?? state.paidThrough, language) });
      return { message, content };
    },
  };
}
