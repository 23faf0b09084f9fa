/**
 * What deleting an account ends outside identity (ADR 042), in an order that is safe to repeat:
 * the wallet first, closed only when empty (so a full wallet stops the deletion before anything
 * else changes), then the plans it offers (their subscribers are no longer charged), its own
 * subscriptions, its API key and its webhook endpoints. A deletion that fails half-way is
 * retried by the owner; every step skips what is already closed.
 */
import { AppError } from '@quern/core';
import { currentMaskedApiKey, deleteApiKey, type MerchantKeyDeps } from '@quern/core/merchant-keys';
import { deletePlan, type PlanDeps } from '@quern/core/plans';
import { cancelSubscription, loadSubscription, type SubscriptionDeps } from '@quern/core/subscriptions';
import { closeWallet, type WalletDeps } from '@quern/core/wallet';
import { deleteWebhookEndpoint, liveEndpoints, loadWebhookEndpoints, type WebhookDeps } from '@quern/core/webhooks';

export interface AccountClosingDeps {
  wallet: WalletDeps;
  plans: PlanDeps;
  subscriptions: SubscriptionDeps;
  merchantKeys: MerchantKeyDeps;
  webhooks: WebhookDeps;
  /** The plans the account offers, and the subscriptions it holds (read models, after its own writes). */
  planIdsOf: (userId: string) => Promise<string[]>;
  subscriptionIdsOf: (userId: string) => Promise<string[]>;
}

const ignoring = (code: string) => (error: unknown) => {
  if (!(error instanceof AppError && error.code === code)) throw error;
};

export function createAccountCloser(deps: AccountClosingDeps): (userId: string) => Promise<void> {
  return async (userId) => {
    await closeWallet(deps.wallet, userId);
    for (const planId of await deps.planIdsOf(userId)) await deletePlan(deps.plans, userId, planId).catch(ignoring('NOT_FOUND'));
    for (const subscriptionId of await deps.subscriptionIdsOf(userId)) {
      const loaded = await loadSubscription(deps.subscriptions, subscriptionId);
      if (!loaded || loaded.state.cancellation || loaded.state.ended) continue;
      await cancelSubscription(deps.subscriptions, userId, subscriptionId).catch(ignoring('CONFLICT'));
    }
    if (await currentMaskedApiKey(deps.merchantKeys, userId)) await deleteApiKey(deps.merchantKeys, userId).catch(ignoring('NOT_FOUND'));
    const { state } = await loadWebhookEndpoints(deps.webhooks.store, userId);
    for (const endpoint of liveEndpoints(state)) await deleteWebhookEndpoint(deps.webhooks, userId, endpoint.endpointId);
  };
}
