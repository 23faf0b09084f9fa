/**
 * The test event (issue 25, ADR 060): a merchant checks an endpoint by sending it a signed
 * `test.ping` through the real delivery path (its own delivery stream, the delivery job, retries,
 * the delivery log), so what the log shows is what their receiver really got. The body has the
 * shape of every webhook: `{ type, timestamp, livemode, data }`, `data` naming the endpoint.
 */
import { AppError } from '../shared/errors.js';
import { isLivemode, type QuernMode } from '../shared/quern-mode.js';
import { WEBHOOK_TEST_EVENT_TYPE } from './catalogue.js';
import { webhookDeliveryStream, webhookEndpointsStream, type WebhookDeliveryScheduled } from './events.js';
import { type WebhookDeps, loadWebhookEndpoints } from './handlers.js';
import { webhookTestDeliveryId } from './ids.js';

/** The test event's JSON body, `livemode` on the payload and on its object as for every webhook (ADR 050). */
export function webhookTestBody(input: { deliveryId: string; endpointId: string; at: string; mode: QuernMode }): string {
  const livemode = isLivemode(input.mode);
  return JSON.stringify({
    type: WEBHOOK_TEST_EVENT_TYPE,
    timestamp: input.at,
    livemode,
    data: { id: input.deliveryId, object: 'test_event', endpoint: input.endpointId, livemode },
  });
}

/** Pure: the delivery a test event opens on the endpoint, at `now`, with a fresh nonce. */
export function decideWebhookTest(input: {
  merchantUserId: string;
  endpointId: string;
  nonce: string;
  now: Date;
  mode: QuernMode;
  endpointsRevision: bigint;
}): WebhookDeliveryScheduled {
  const deliveryId = webhookTestDeliveryId(input.endpointId, input.nonce);
  const at = input.now.toISOString();
  return {
    type: 'WebhookDeliveryScheduled',
    data: {
      deliveryId,
      endpointId: input.endpointId,
      merchantUserId: input.merchantUserId,
      eventType: WEBHOOK_TEST_EVENT_TYPE,
      body: webhookTestBody({ deliveryId, endpointId: input.endpointId, at, mode: input.mode }),
      // No log event is reported: the endpoint's own stream at the time of the test stands in for tracing.
      sourceStreamId: webhookEndpointsStream(input.merchantUserId),
      sourceRevision: input.endpointsRevision.toString(),
      scheduledAt: at,
    },
  };
}

/**
 * Sends a test event to one of the merchant's live endpoints (another merchant's, a deleted one
 * or an unknown id: 404, nothing appended). `admit` (the rate limit) is asked only once the
 * endpoint is found, so a wrong id uses up no test. Returns the delivery id.
 */
export async function sendWebhookTestEvent(
  deps: WebhookDeps & { mode: QuernMode },
  input: { merchantUserId: string; endpointId: string; admit?: () => Promise<void> },
): Promise<string> {
  const { state, revision } = await loadWebhookEndpoints(deps.store, input.merchantUserId);
  const live = state.endpoints.some((e) => e.endpointId === input.endpointId && e.deletedAt === undefined);
  if (!live) throw new AppError('NOT_FOUND', 'errors:webhookEndpointNotFound');
  await input.admit?.();
  const scheduled = decideWebhookTest({
    merchantUserId: input.merchantUserId,
    endpointId: input.endpointId,
    nonce: deps.newId(),
    now: deps.clock.now(),
    mode: deps.mode,
    endpointsRevision: typeof revision === 'bigint' ? revision : 0n,
  });
  await deps.store.append(webhookDeliveryStream(scheduled.data.deliveryId), [scheduled], 'no_stream');
  return scheduled.data.deliveryId;
}
