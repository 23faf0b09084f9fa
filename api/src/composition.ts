/**
 * How the api's services are composed: one shared composition context (what the process opened),
 * and each capability's composer, which adds its services to it and to those listed before it in
 * the list of modules (modules.ts, ADR 073).
 */
import type { Clock, EventStore } from '@quern/core';
import type { WalletDeps } from '@quern/core/wallet';
import type { SealingEventStore } from '@quern/adapters/personal-data';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { SessionStore } from './identity/sessions.js';
import type { OpenedPayPal } from './purchases/paypal.js';
import type { WebhookSourceReader } from './events-feed/data.js';

/** What every capability's services may be built from: the process's foundations, opened once. */
export interface CompositionContext {
  config: Config;
  /** The log, with the personal-data vault the identity service seals with. */
  store: SealingEventStore;
  redis: Redis;
  /** The ledger's dependencies, with the ledger's clock (tests may move it) and the wallet cache. */
  ledger: WalletDeps;
  /** Commands outside the ledger: the log, the system clock and random ids. */
  commands: { store: EventStore; clock: Clock; newId: () => string };
  appSecret: string;
  /** The sessions the request context reads; identity opens and ends them. */
  sessions: SessionStore;
  /** Where PayPal calls go, and the buy page's browser settings. */
  paypal: OpenedPayPal;
  /** Resolves when the read models include the given log position (or the wait timed out). */
  waitForReadModels: (position: bigint) => Promise<void>;
  /** The webhook fan-out's reader of a source event (the workers'): the events feed builds its objects with it. */
  webhookSourceOf: WebhookSourceReader;
}

/**
 * One capability's part of the list: its services, keyed by the request context's name for them
 * (`{ wallet: createWalletService(...) }`), built from the composition context and the services
 * listed before it that it names in its second parameter's type.
 */
export type ServiceComposer<Needs extends object, Provided extends object> = (context: CompositionContext, built: Needs) => Provided;
