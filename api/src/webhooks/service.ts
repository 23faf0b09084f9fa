/**
 * The webhook endpoints use cases (ADR 035), shared by the merchant API (/api/v1, bearer key) and
 * the web app's API Direct page (tRPC, session): both name the merchant by user id. The secret is
 * made here (node's CSPRNG, base64) and answered by create only; lists never carry it.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '@quern/core';
import {
  checkWebhookEvents,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  deliveryStatus,
  findLiveWebhookEndpoint,
  liveEndpoints,
  loadWebhookDelivery,
  loadWebhookEndpoints,
  requestWebhookRedelivery,
  rotateWebhookSecret,
  sendWebhookTestEvent,
  WEBHOOK_SECRET_BYTES,
  type WebhookDeliveriesQuery,
  type WebhookDeliveryListOutput,
  type WebhookDeliveryOutput,
  type WebhookDeliveryEventType,
  type WebhookDeliveryState,
  type WebhookDeps,
  type WebhookEndpointCreateInput,
  type WebhookEndpointCreatedOutput,
  type WebhookEndpointDeletedOutput,
  type WebhookEndpointListOutput,
  type WebhookEndpointOutput,
  type WebhookEventType,
} from '@quern/core/webhooks';
import { checkWebhookTarget, type Resolve } from '@quern/adapters/webhooks';
import { listWebhookDeliveryIds } from '@quern/projections';
import type { Redis } from 'ioredis';
import type { QuernMode } from '@quern/core';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { limitWithRetryAfter } from '../identity/limits.js';

export interface WebhookServiceDeps {
  core: WebhookDeps;
  redis: Redis;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS. */
  allowPrivateNetworks: boolean;
  /** DNS for the creation check; the system resolver unless given. */
  resolve?: Resolve;
  /** Redis key prefix of the rotation and test limiters (tests give each Quern its own Redis anyway). */
  limiterPrefix?: string;
  /** QUERN_MODE: a test event's `livemode`, as every other webhook's (ADR 050). */
  mode: QuernMode;
}

/**
 * Test events per endpoint per minute (issue 25, ADR 060): plenty to check a receiver while
 * fixing it, too few to turn Quern into a tool for flooding a URL.
 */
export const WEBHOOK_TESTS_PER_MINUTE = 10;

/**
 * Secret rotations per merchant per hour (ADR 056): enough to recover from a leak and a mistake
 * or two, few enough that a stolen session or key cannot churn the secrets (each rotation makes
 * the previous secret stop signing at once when within the overlap).
 */
export const WEBHOOK_ROTATIONS_PER_HOUR = 10;

export type WebhookService = ReturnType<typeof createWebhookService>;

const DELIVERIES_PAGE_DEFAULT = 20;

const endpointOutput = (e: { endpointId: string; url: string; events: string[]; createdAt: string }): WebhookEndpointOutput => ({
  id: e.endpointId,
  object: 'webhook_endpoint',
  url: e.url,
  events: e.events as WebhookEventType[],
  created_at: e.createdAt,
});

function deliveryOutput(state: WebhookDeliveryState): WebhookDeliveryOutput | undefined {
  const scheduled = state.scheduled;
  if (!scheduled) return undefined;
  return {
    id: scheduled.deliveryId,
    object: 'webhook_delivery',
    endpoint: scheduled.endpointId,
    event_type: scheduled.eventType as WebhookDeliveryEventType,
    status: deliveryStatus(state),
    created_at: scheduled.scheduledAt,
    attempts: state.runs.flatMap((run) =>
      run.attempts.map((a) => ({
        run: a.run,
        attempt: a.attempt,
        started_at: a.startedAt,
        duration_ms: a.durationMs,
        status_code: a.statusCode ?? null,
        error: a.error ?? null,
        delivered: a.delivered,
      })),
    ),
  };
}

export function createWebhookService(deps: WebhookServiceDeps) {
  const { core } = deps;
  const rotations = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${deps.limiterPrefix ?? 'rl'}:webhook-rotate`,
    points: WEBHOOK_ROTATIONS_PER_HOUR,
    duration: 60 * 60,
  });
  const tests = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${deps.limiterPrefix ?? 'rl'}:webhook-test`,
    points: WEBHOOK_TESTS_PER_MINUTE,
    duration: 60,
  });
  const newSecret = () => `whsec_${randomBytes(WEBHOOK_SECRET_BYTES).toString('base64')}`;
  return {
    async create(merchantUserId: string, input: WebhookEndpointCreateInput): Promise<WebhookEndpointCreatedOutput> {
      const events = checkWebhookEvents(input.events);
      const url = await checkWebhookTarget(input.url, { allowPrivateNetworks: deps.allowPrivateNetworks, resolve: deps.resolve });
      const secret = newSecret();
      const created = await createWebhookEndpoint(core, { merchantUserId, url: url.href, events, secret });
      return { ...endpointOutput(created), secret: created.secret };
    },

    /**
     * A new secret, answered this once like the creation's; the replaced one keeps signing beside
     * it for 24 hours (ADR 056). The limit is counted once the endpoint is found, so a wrong id
     * uses up no rotation.
     */
    async rotateSecret(merchantUserId: string, endpointId: string): Promise<WebhookEndpointCreatedOutput> {
      const admit = () => limitWithRetryAfter(rotations, merchantUserId);
      const rotated = await rotateWebhookSecret(core, { merchantUserId, endpointId, secret: newSecret(), admit });
      return { ...endpointOutput(rotated), secret: rotated.secret };
    },

    async list(merchantUserId: string): Promise<WebhookEndpointListOutput> {
      const { state } = await loadWebhookEndpoints(core.store, merchantUserId);
      return { object: 'list', data: liveEndpoints(state).map(endpointOutput).reverse() };
    },

    async remove(merchantUserId: string, endpointId: string): Promise<WebhookEndpointDeletedOutput> {
      await deleteWebhookEndpoint(core, merchantUserId, endpointId);
      return { id: endpointId, object: 'webhook_endpoint', deleted: true };
    },

    /** The endpoint's deliveries, newest first, each with its attempts (read from its own stream). */
    async deliveries(merchantUserId: string, endpointId: string, query: WebhookDeliveriesQuery): Promise<WebhookDeliveryListOutput> {
      await findLiveWebhookEndpoint(core.store, merchantUserId, endpointId);
      const page = await listWebhookDeliveryIds(deps.redis, endpointId, {
        limit: query.limit ?? DELIVERIES_PAGE_DEFAULT,
        startingAfter: query.starting_after,
      });
      const states = await Promise.all(page.ids.map(async (id) => (await loadWebhookDelivery(core.store, id)).state));
      const data = states.map(deliveryOutput).filter((d): d is WebhookDeliveryOutput => d !== undefined);
      return { object: 'list', data, has_more: page.hasMore };
    },

    /**
     * Sends a signed `test.ping` to the endpoint through the delivery path (ADR 060): answered
     * as the new delivery (pending), which then shows in the endpoint's log with its attempts.
     * 429 with Retry-After past the per-endpoint limit; counted only once the endpoint is found.
     */
    async sendTest(merchantUserId: string, endpointId: string): Promise<WebhookDeliveryOutput> {
      const admit = () => limitWithRetryAfter(tests, `${merchantUserId}:${endpointId}`);
      const deliveryId = await sendWebhookTestEvent({ ...core, mode: deps.mode }, { merchantUserId, endpointId, admit });
      const output = deliveryOutput((await loadWebhookDelivery(core.store, deliveryId)).state);
      if (!output) throw new AppError('NOT_FOUND', 'errors:webhookDeliveryNotFound');
      return output;
    },

    /** A new run of the delivery, with the same webhook-id; 409 while a run is still open. */
    async redeliver(merchantUserId: string, endpointId: string, deliveryId: string): Promise<WebhookDeliveryOutput> {
      await requestWebhookRedelivery(core, merchantUserId, endpointId, deliveryId);
      const output = deliveryOutput((await loadWebhookDelivery(core.store, deliveryId)).state);
      if (!output) throw new AppError('NOT_FOUND', 'errors:webhookDeliveryNotFound');
      return output;
    },
  };
}
