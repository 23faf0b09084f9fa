/**
 * How the api's services are composed: one shared composition context (what the process opened),
 * and a typed list of capabilities, each adding its services and seeing those listed before it.
 * The request context's service fields are the list's result type (http/context.ts), so no file
 * names every service (ADR 073).
 */
import type { Clock, EventStore } from '@quern/core';
import type { WalletDeps } from '@quern/core/wallet';
import type { SealingEventStore } from '@quern/adapters/personal-data';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { SessionStore } from './identity/sessions.js';
import type { OpenedPayPal } from './purchases/paypal.js';

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
}

/**
 * One capability's part of the list: its services, keyed by the request context's name for them
 * (`{ wallet: createWalletService(...) }`), built from the composition context and the services
 * listed before it that it names in its second parameter's type.
 */
export type ServiceComposer<Needs extends object, Provided extends object> = (context: CompositionContext, built: Needs) => Provided;

/** Services under names the list does not hold yet. */
type NewNames<Built extends object> = object & { [Name in keyof Built]?: never };

/** An ordered list of capabilities' services; `with` adds one, `compose` builds them in order. */
export class ServiceList<Built extends object> {
  static readonly empty: ServiceList<Record<never, never>> = new ServiceList(() => ({}));

  private constructor(private readonly composeAll: (context: CompositionContext) => Built) {}

  /**
   * A capability whose composer names a service not listed before it does not compile, nor one
   * that provides a name already taken (the later would hide the earlier in every context).
   */
  with<Provided extends NewNames<Built>>(composer: ServiceComposer<Built, Provided>): ServiceList<Built & Provided> {
    return new ServiceList((context) => {
      const built = this.composeAll(context);
      return { ...built, ...composer(context, built) };
    });
  }

  compose(context: CompositionContext): Built {
    return this.composeAll(context);
  }
}

/** The services a list builds, by name: what every request's context carries. */
export type ServicesOf<List> = List extends ServiceList<infer Built> ? Built : never;
