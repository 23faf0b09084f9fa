/** The identity service, from the composition context and the wallet's service (ADR 073). */
import { allPlanIdsOfProvider, allSubscriptionIdsOfSubscriber } from '@quern/projections';
import { createPasswordHasher } from '@quern/adapters/passwords';
import { systemClock } from '@quern/core';
import { errorText, isLanguage } from '@quern/core/i18n';
import { randomUUID } from 'node:crypto';
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { createAccountCloser } from './account-closing.js';
import { isCommonPassword } from './common-passwords.js';
import { createIdentityLimits } from './limits.js';
import { createIdentityService, type IdentityService } from './service.js';

// Every request's context carries it as ctx.identity.
declare module '../http/context.js' {
  interface ApiServices {
    identity: IdentityService;
  }
}

export const composeIdentityService = (
  { config, store, redis, ledger, commands, appSecret, sessions }: CompositionContext,
  { wallet }: { wallet: WalletService },
) => {
  const closeAccount = createAccountCloser({
    wallet: ledger,
    plans: commands,
    subscriptions: ledger,
    merchantKeys: commands,
    webhooks: commands,
    planIdsOf: async (userId) => {
      await wallet.awaitOwnWrites(userId);
      // Every plan and subscription, however many (ADR 057): a closed account leaves none behind.
      return allPlanIdsOfProvider(redis, userId);
    },
    subscriptionIdsOf: async (userId) => {
      await wallet.awaitOwnWrites(userId);
      return allSubscriptionIdsOfSubscriber(redis, userId);
    },
  });
  const identity = createIdentityService({
    core: {
      store,
      hasher: createPasswordHasher(),
      clock: systemClock,
      newId: randomUUID,
      isCommonPassword,
      personalData: store.personalData,
    },
    sessions,
    limits: createIdentityLimits(redis, {
      loginFreeFailures: config.LOGIN_FREE_FAILURES,
      loginFailuresPerAccount: config.LOGIN_FAILURES_PER_ACCOUNT,
      loginFailuresPerIp: config.LOGIN_FAILURES_PER_IP,
      registrationsPerIpHour: config.REGISTRATIONS_PER_IP_HOUR,
      resetRequestsPerIp: config.RESET_REQUESTS_PER_IP,
      twoFactorFailuresPerAccount: config.TWO_FACTOR_FAILURES_PER_ACCOUNT,
    }),
    clock: systemClock,
    appSecret,
    secureCookies: config.publicUrl.startsWith('https://'),
    openWallet: (userId) => wallet.openFor(userId),
    closeAccount,
    deletedMessage: (language) => errorText('errors:accountDeletedNotice', isLanguage(language) ? language : undefined),
  });
  return { identity };
};
