/**
 * Pure webhook decisions (ADR 035, 056): the endpoint changes decided on a merchant's endpoint
 * stream (the bound of WEBHOOK_ENDPOINTS_MAX, only a live endpoint is deleted or rotated), a
 * redelivery decided on its delivery stream, and the events an attempt or an abandoned run
 * records. No I/O: the handlers load, decide through the command pipeline and append.
 */
import { AppError } from '../shared/errors.js';
import type {
  AbandonRunCommand,
  CreateEndpointCommand,
  DeleteEndpointCommand,
  RotateSecretCommand,
  WebhookAttemptRecord,
} from './commands.js';
import { openRun, WEBHOOK_REDELIVERIES_MAX, type WebhookDeliveryState } from './deliveries.js';
import { liveEndpoints, WEBHOOK_ENDPOINTS_MAX, type WebhookEndpointsState } from './endpoints.js';
import type {
  WebhookDeliveryEvent,
  WebhookDeliveryFailed,
  WebhookEndpointCreated,
  WebhookEndpointDeleted,
  WebhookEndpointSecretRotated,
  WebhookRedeliveryRequested,
} from './events.js';

export function decideCreateEndpoint(state: WebhookEndpointsState, command: CreateEndpointCommand): WebhookEndpointCreated {
  if (liveEndpoints(state).length >= WEBHOOK_ENDPOINTS_MAX)
    throw new AppError('UNPROCESSABLE', 'errors:webhookEndpointsLimit', { url: 'errors:webhookEndpointsLimit' });
  const { endpointId, merchantUserId, url, events, secret, now } = command;
  return { type: 'WebhookEndpointCreated', data: { endpointId, merchantUserId, url, events, secret, createdAt: now.toISOString() } };
}

export function decideDeleteEndpoint(state: WebhookEndpointsState, command: DeleteEndpointCommand): WebhookEndpointDeleted {
  if (!liveEndpoints(state).some((e) => e.endpointId === command.endpointId))
    throw new AppError('NOT_FOUND', 'errors:webhookEndpointNotFound');
  return {
    type: 'WebhookEndpointDeleted',
    data: { endpointId: command.endpointId, merchantUserId: command.merchantUserId, deletedAt: command.now.toISOString() },
  };
}

export function decideRotateSecret(state: WebhookEndpointsState, command: RotateSecretCommand): WebhookEndpointSecretRotated {
  if (!liveEndpoints(state).some((e) => e.endpointId === command.endpointId))
    throw new AppError('NOT_FOUND', 'errors:webhookEndpointNotFound');
  const { endpointId, merchantUserId, secret, now } = command;
  return { type: 'WebhookEndpointSecretRotated', data: { endpointId, merchantUserId, secret, rotatedAt: now.toISOString() } };
}

export function decideRedelivery(state: WebhookDeliveryState, now: Date): WebhookRedeliveryRequested {
  const scheduled = state.scheduled;
  if (!scheduled) throw new AppError('NOT_FOUND', 'errors:webhookDeliveryNotFound');
  if (openRun(state)) throw new AppError('CONFLICT', 'errors:webhookDeliveryInProgress');
  if (state.runs.length > WEBHOOK_REDELIVERIES_MAX) throw new AppError('UNPROCESSABLE', 'errors:webhookRedeliveriesLimit');
  return {
    type: 'WebhookRedeliveryRequested',
    data: { deliveryId: scheduled.deliveryId, run: state.runs.length, requestedAt: now.toISOString() },
  };
}

/**
 * What one attempt records, at the revision it was decided on: the attempt, and the run's end when
 * it delivered or was the last the schedule allows.
 */
export function decideAttempt(a: WebhookAttemptRecord, now: Date): WebhookDeliveryEvent[] {
  const { deliveryId, run } = a;
  const at = now.toISOString();
  const events: WebhookDeliveryEvent[] = [
    {
      type: 'WebhookDeliveryAttempted',
      data: {
        deliveryId,
        run,
        attempt: a.attempt,
        startedAt: a.startedAt.toISOString(),
        durationMs: Math.max(0, Math.round(a.durationMs)),
        ...(a.statusCode === undefined ? {} : { statusCode: a.statusCode }),
        ...(a.error === undefined ? {} : { error: a.error }),
        ...(a.responseExcerpt ? { responseExcerpt: a.responseExcerpt } : {}),
        delivered: a.delivered,
      },
    },
  ];
  if (a.delivered) events.push({ type: 'WebhookDeliverySucceeded', data: { deliveryId, run, deliveredAt: at } });
  else if (a.lastAttempt)
    events.push({ type: 'WebhookDeliveryFailed', data: { deliveryId, run, reason: 'attempts_exhausted', failedAt: at } });
  return events;
}

/** A run ended without another attempt: its endpoint was deleted, or the (shortened) schedule is used up. */
export function decideAbandonRun(command: AbandonRunCommand, now: Date): WebhookDeliveryFailed {
  const { deliveryId, run, reason } = command;
  return { type: 'WebhookDeliveryFailed', data: { deliveryId, run, reason, failedAt: now.toISOString() } };
}
