/**
 * Webhook endpoints: the rules on a URL and on the subscribed events, the state folded from a
 * merchant's endpoint stream (its decisions are in decider.ts). Whether the URL's
 * host resolves to a public address is checked outside core (it needs DNS): at creation by the
 * api and again at each delivery by the sender; so is the URL's syntax (adapters/webhooks, with
 * the WHATWG URL parser, which core does not have).
 */
import { assertNever } from '../shared/assert.js';
import { AppError } from '../shared/errors.js';
import { isWebhookEventType, type WebhookEventType } from './catalogue.js';
import type { WebhookEndpointEvent } from './events.js';

/** A bound on endpoints per merchant: each source event fans out to at most this many deliveries. */
export const WEBHOOK_ENDPOINTS_MAX = 16;
export const WEBHOOK_URL_LENGTH_MAX = 2048;
/** How long a replaced secret keeps signing beside the new one (ADR 056): a day to deploy the new one. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The subscribed types without repeats, in catalogue order; unknown names are a 400. */
export function checkWebhookEvents(events: readonly string[] | undefined): WebhookEventType[] {
  const wanted = new Set<WebhookEventType>();
  for (const name of events ?? []) {
    if (!isWebhookEventType(name)) throw new AppError('VALIDATION', 'errors:webhookEventUnknown', { events: 'errors:webhookEventUnknown' });
    wanted.add(name);
  }
  return [...wanted];
}

export interface WebhookEndpoint {
  endpointId: string;
  url: string;
  events: string[];
  secret: string;
  /**
   * The secret the last rotation replaced, and when it stops signing (ADR 056). Only one: a
   * second rotation within the overlap drops the one before, which the merchant has replaced twice.
   */
  previousSecret?: { secret: string; expiresAt: string };
  createdAt: string;
  /** Log position of the creation: only source events after it are delivered to the endpoint. */
  createdPosition: bigint;
  deletedAt?: string;
  deletedPosition?: bigint;
}

export interface WebhookEndpointsState {
  /** Every endpoint ever created, deleted ones included, in creation order. */
  endpoints: WebhookEndpoint[];
}

export const emptyWebhookEndpoints = (): WebhookEndpointsState => ({ endpoints: [] });

export function evolveWebhookEndpoints(state: WebhookEndpointsState, event: WebhookEndpointEvent, position: bigint): WebhookEndpointsState {
  switch (event.type) {
    case 'WebhookEndpointCreated': {
      const { endpointId, url, events, secret, createdAt } = event.data;
      return { endpoints: [...state.endpoints, { endpointId, url, events, secret, createdAt, createdPosition: position }] };
    }
    case 'WebhookEndpointSecretRotated': {
      const { endpointId, secret, rotatedAt } = event.data;
      const expiresAt = new Date(Date.parse(rotatedAt) + WEBHOOK_SECRET_OVERLAP_MS).toISOString();
      return {
        endpoints: state.endpoints.map((e) =>
          e.endpointId === endpointId && e.deletedAt === undefined ? { ...e, secret, previousSecret: { secret: e.secret, expiresAt } } : e,
        ),
      };
    }
    case 'WebhookEndpointDeleted':
      return {
        endpoints: state.endpoints.map((e) =>
          e.endpointId === event.data.endpointId && e.deletedAt === undefined
            ? { ...e, deletedAt: event.data.deletedAt, deletedPosition: position }
            : e,
        ),
      };
    default:
      return assertNever(event);
  }
}

export const liveEndpoints = (state: WebhookEndpointsState): WebhookEndpoint[] => state.endpoints.filter((e) => e.deletedAt === undefined);

/** The endpoint existed (created before, not deleted before) when the log reached `position`. */
export const endpointLiveAt = (endpoint: WebhookEndpoint, position: bigint): boolean =>
  endpoint.createdPosition < position && (endpoint.deletedPosition === undefined || endpoint.deletedPosition > position);

/**
 * The secrets that sign an attempt made at `at`: the current one first, then the replaced one
 * while its overlap lasts (Standard Webhooks sends each as its own `v1,` signature).
 */
export function signingSecrets(endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret'>, at: Date): string[] {
  const previous = endpoint.previousSecret;
  return previous && at.getTime() < Date.parse(previous.expiresAt) ? [endpoint.secret, previous.secret] : [endpoint.secret];
}
