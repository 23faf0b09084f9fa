/**
 * Subscriptions as the api offers them (issue 13, ADR 037): the quote the confirmation shows,
 * subscribe (charges the first period at once), the user's list and one subscription with every
 * charge, and cancel (by the subscriber or the plan's provider). Charges move money, so the
 * wallet read models are told whose balances moved.
 */
import { billingText, type Language } from '@quern/core/i18n';
import {
  cancelSubscription,
  quoteSubscription,
  readSubscriptionFor,
  type SubscribeInput,
  type SubscribeQuoteOutput,
  subscribe,
  type SubscriptionDeps,
  type SubscriptionOutput,
  toSubscriptionOutput,
  loadSubscription,
} from '@quern/core/subscriptions';
import { formatMlx, mlxFromWire } from '@quern/core/wallet';
import { listSubscriptionIdsOfSubscriber } from '@quern/projections';
import type { Redis } from 'ioredis';

export interface SubscriptionServiceDeps {
  core: SubscriptionDeps;
  redis: Redis;
  noteWrite?: (userId: string, position: bigint) => void;
  awaitOwnWrites?: (userId: string) => Promise<void>;
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;

const LOCALE: Record<Language, string> = { en: 'en-GB', es: 'es-ES' };
const longDate = (iso: string, language: Language): string =>
  new Intl.DateTimeFormat(LOCALE[language], { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

export function createSubscriptionService(deps: SubscriptionServiceDeps) {
  const { core } = deps;
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
      const content = toSubscriptionOutput(state);
      const price = formatMlx(mlxFromWire(content.price), language);
      return { message: billingText('subscribed', language, { price, date: longDate(state.paidThrough, language) }), content };
    },

    /** The user's own subscriptions (as subscriber), newest first, each read from its stream. */
    async mine(userId: string): Promise<{ content: SubscriptionOutput[] }> {
      await deps.awaitOwnWrites?.(userId);
      const ids = await listSubscriptionIdsOfSubscriber(deps.redis, userId);
      const loaded = await Promise.all(ids.map((id) => loadSubscription(core, id)));
      return { content: loaded.flatMap((l) => (l && l.state.subscriberUserId === userId ? [toSubscriptionOutput(l.state)] : [])) };
    },

    async get(userId: string, subscriptionId: string): Promise<{ content: SubscriptionOutput }> {
      return { content: toSubscriptionOutput(await readSubscriptionFor(core, userId, subscriptionId)) };
    },

    async cancel(userId: string, subscriptionId: string, language: Language): Promise<{ message: string; content: SubscriptionOutput }> {
      const { state, position } = await cancelSubscription(core, userId, subscriptionId);
      if (position !== undefined) {
        deps.noteWrite?.(state.subscriberUserId, position);
        deps.noteWrite?.(state.providerUserId, position);
      }
      const content = toSubscriptionOutput(state);
      const message =
        content.status === 'ended'
          ? billingText('subscriptionEnded', language)
          : billingText('subscriptionCancelled', language, { date: longDate(content.ends_at ?? state.paidThrough, language) });
      return { message, content };
    },
  };
}
