/**
 * A plans' subscriptions read model over the log, for tests (the app's is a projection; this lives
 * here, not in test-support, because test-support exports only named files): it reads
 * the log after its cursor, indexes each SubscriptionStarted by plan, and answers only once it has
 * read up to the position asked for, as the port requires (undefined before that).
 *
 * `followOnRead: false` keeps it where it is until catchUp() is called, so a test can show a job
 * waiting for a read model that lags.
 */
import type { EventStore } from '@quern/core';
import { toSubscriptionEvent } from '@quern/core/subscriptions';
import type { PlanSubscriptions } from '../src/plan-price-notice/job.js';

const PAGE_SIZE = 5_000;

export class LogPlanSubscriptions implements PlanSubscriptions {
  readonly #store: EventStore;
  readonly #followOnRead: boolean;
  readonly #byPlan = new Map<string, string[]>();
  #cursor: bigint | undefined;
  #catchingUp: Promise<void> | undefined;

  constructor(store: EventStore, options: { followOnRead?: boolean } = {}) {
    this.#store = store;
    this.#followOnRead = options.followOnRead ?? true;
  }

  /** The last position read, or -1 before any. */
  get position(): bigint {
    return this.#cursor ?? -1n;
  }

  /** Reads the log to its end (one catch-up at a time). */
  catchUp(): Promise<void> {
    this.#catchingUp ??= this.#read().finally(() => {
      this.#catchingUp = undefined;
    });
    return this.#catchingUp;
  }

  async #read(): Promise<void> {
    for (;;) {
      const page = await this.#store.readAll({ after: this.#cursor, maxCount: PAGE_SIZE });
      for (const recorded of page) {
        if (recorded.type === 'SubscriptionStarted') {
          const event = toSubscriptionEvent(recorded);
          if (event?.type !== 'SubscriptionStarted') throw new Error(`Malformed SubscriptionStarted at position ${recorded.position}`);
          const ids = this.#byPlan.get(event.data.planId) ?? [];
          if (!ids.includes(event.data.subscriptionId)) ids.push(event.data.subscriptionId);
          this.#byPlan.set(event.data.planId, ids);
        }
        this.#cursor = recorded.position;
      }
      if (page.length < PAGE_SIZE) return;
    }
  }

  async subscriptionIdsOfPlan(planId: string, atLeastPosition: bigint): Promise<string[] | undefined> {
    if (this.#followOnRead) await this.catchUp();
    if (this.position < atLeastPosition) return undefined;
    return [...(this.#byPlan.get(planId) ?? [])];
  }
}
