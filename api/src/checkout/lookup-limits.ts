/**
 * The bounds on the checkout popup's merchant lookup (checkout.merchant, ADR 043): it tells who a
 * username or e-mail is, so each account (over all its sessions) and each client address get a
 * number of lookups per hour, counted in Redis across processes; then 429 with Retry-After.
 */
import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import { limitRequest } from '../identity/limits.js';

const HOUR_SECONDS = 60 * 60;

export interface CheckoutLookupLimits {
  /** Counts one lookup; throws RATE_LIMITED when the address or the account is over its limit. */
  count(userId: string, clientIp: string): Promise<void>;
}

export function createCheckoutLookupLimits(
  redis: Redis,
  settings: { perUserHour: number; perIpHour: number },
  prefix = 'rl',
): CheckoutLookupLimits {
  const limiter = (name: string, points: number) =>
    new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:${name}`, points, duration: HOUR_SECONDS });
  const perIp = limiter('checkout-lookup-ip', settings.perIpHour);
  const perUser = limiter('checkout-lookup-user', settings.perUserHour);
  return {
    async count(userId, clientIp) {
      // The address first: a lookup refused for it costs the account nothing.
      await limitRequest(perIp, clientIp);
      await limitRequest(perUser, userId);
    },
  };
}

/**
 * The limits as configured. The send form's recipient lookup and the checkout popup's merchant
 * lookup each build them, and count against the same Redis keys: one budget for both (ADR 043).
 */
export const configuredCheckoutLookupLimits = (redis: Redis, config: Config): CheckoutLookupLimits =>
  createCheckoutLookupLimits(redis, { perUserHour: config.CHECKOUT_LOOKUPS_PER_USER_HOUR, perIpHour: config.CHECKOUT_LOOKUPS_PER_IP_HOUR });
