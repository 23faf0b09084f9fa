/**
 * Webhook commands: what the handlers ask the decider (decider.ts) to do to a merchant's endpoint
 * stream or to one delivery stream. Ids and secrets are made by the caller (a fresh UUID, random
 * bytes), so the decisions stay pure.
 */
import type { WebhookEventType } from './catalogue.js';

export interface CreateEndpointCommand {
  endpointId: string;
  merchantUserId: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
  now: Date;
}

export interface DeleteEndpointCommand {
  endpointId: string;
  merchantUserId: string;
  now: Date;
}

export interface RotateSecretCommand {
  endpointId: string;
  merchantUserId: string;
  secret: string;
  now: Date;
}

/** One attempt of a run, as the delivery job made it. */
export interface WebhookAttemptRecord {
  deliveryId: string;
  run: number;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode?: number;
  error?: string;
  responseExcerpt?: string;
  delivered: boolean;
  /** The run gives up with this attempt (it failed and was the last the schedule allows). */
  lastAttempt: boolean;
}

/** Ends a run without another attempt. */
export interface AbandonRunCommand {
  deliveryId: string;
  run: number;
  reason: 'endpoint_deleted' | 'attempts_exhausted';
}
