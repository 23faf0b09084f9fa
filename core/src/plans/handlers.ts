/**
 * Plan handlers (issue 13, ADR 037): create, edit and delete, each one event on `plan-<id>`.
 * Only the owner (the plan's provider_id) edits or deletes, checked here, on the folded stream,
 * so every caller (REST, tRPC, tools) gets the same rule: anyone else gets 403 and nothing is
 * appended. An edit or delete is appended under the revision it was decided on.
 */
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { WrongExpectedRevisionError, type EventStore, type ExpectedRevision } from '../shared/ports/event-store.js';
import { mlxToWire } from '../wallet/money.js';
import type { PlanCreateInput } from './contracts.js';
import {
  PLAN_ID_PATTERN,
  type PlanCreated,
  type PlanDeleted,
  type PlanTerms,
  type PlanUpdated,
  planStream,
  toPlanEvent,
} from './events.js';
import { evolvePlan, sameTerms, type PlanState } from './state.js';
import { planNotFound, planNotOwner as notOwner } from './decider.js';

export { planNotFound };

export interface PlanDeps {
  store: EventStore;
  clock: Clock;
  newId: () => string;
}

const ATTEMPTS_MAX = 8;

const termsOf = (input: PlanCreateInput): PlanTerms => ({
  name: input.name,
  description: input.description,
  priceMlx: mlxToWire(input.price),
  currency: input.currency,
  duration: input.duration,
});

/** A plan with its stream revision, deleted ones included; undefined when there is no such plan. */
export async function loadPlan(
  deps: Pick<PlanDeps, 'store'>,
  planId: string,
): Promise<{ plan: PlanState; revision: ExpectedRevision } | undefined> {
  if (!PLAN_ID_PATTERN.test(planId)) return undefined;
  const records = await deps.store.readStream(planStream(planId));
  let plan: PlanState | undefined;
  let revision: ExpectedRevision = 'no_stream';
  for (const record of records) {
    const event = toPlanEvent(record);
    if (!event) throw new Error(`Unreadable ${record.type} at ${planStream(planId)}@${record.revision}`);
    plan = evolvePlan(plan, event);
    revision = record.revision;
  }
  return plan ? { plan, revision } : undefined;
}

/** A plan that is not deleted, or 404. */
export async function readLivePlan(deps: Pick<PlanDeps, 'store'>, planId: string): Promise<PlanState> {
  const loaded = await loadPlan(deps, planId);
  if (!loaded || loaded.plan.deletedAt !== undefined) throw planNotFound();
  return loaded.plan;
}

export async function createPlan(
  deps: PlanDeps,
  providerUserId: string,
  input: PlanCreateInput,
): Promise<{ plan: PlanState; position: bigint }> {
  const planId = deps.newId().toLowerCase();
  if (!PLAN_ID_PATTERN.test(planId)) throw new Error(`newId gave ${planId}, not a UUID`);
  const event: PlanCreated = {
    type: 'PlanCreated',
    data: { planId, providerUserId, ...termsOf(input), createdAt: deps.clock.now().toISOString() },
  };
  const appended = await deps.store.append(planStream(planId), [event as never], 'no_stream');
  const plan = evolvePlan(undefined, event);
  if (!plan) throw new Error('A created plan folds to a plan');
  return { plan, position: appended.position };
}

/** Decides an edit or delete on the current plan, as its owner, and appends it; retried on a lost race. */
async function changePlan(
  deps: PlanDeps,
  userId: string,
  planId: string,
  decide: (plan: PlanState) => PlanUpdated | PlanDeleted | undefined,
): Promise<{ plan: PlanState; position?: bigint; event?: PlanUpdated | PlanDeleted }> {
  for (let attempt = 1; attempt <= ATTEMPTS_MAX; attempt++) {
    const loaded = await loadPlan(deps, planId);
    if (!loaded || loaded.plan.deletedAt !== undefined) throw planNotFound();
    if (loaded.plan.providerUserId !== userId) throw notOwner();
    const event = decide(loaded.plan);
    if (!event) return { plan: loaded.plan };
    try {
      const appended = await deps.store.append(planStream(planId), [event as never], loaded.revision);
      return { plan: evolvePlan(loaded.plan, event) ?? loaded.plan, position: appended.position, event };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
  throw new AppError('CONCURRENCY', 'errors:busy');
}

/** The owner's edit; an edit that changes nothing appends nothing. */
export function updatePlan(deps: PlanDeps, userId: string, planId: string, input: PlanCreateInput) {
  const terms = termsOf(input);
  return changePlan(deps, userId, planId, (plan): PlanUpdated | undefined => {
    if (sameTerms(plan.terms, terms)) return undefined;
    const priceChanged = plan.terms.priceMlx !== terms.priceMlx;
    return {
      type: 'PlanUpdated',
      data: {
        planId,
        ...terms,
        updatedAt: deps.clock.now().toISOString(),
        ...(priceChanged ? { previousPriceMlx: plan.terms.priceMlx } : {}),
      },
    };
  });
}

/** The owner's delete: the plan takes no new subscribers; its subscriptions end with their paid period. */
export function deletePlan(deps: PlanDeps, userId: string, planId: string) {
  return changePlan(
    deps,
    userId,
    planId,
    (plan): PlanDeleted => ({
      type: 'PlanDeleted',
      data: { planId, providerUserId: plan.providerUserId, deletedAt: deps.clock.now().toISOString() },
    }),
  );
}

/** The owner check alone, for reads only the owner may make (the subscriber list). */
export async function requirePlanOwner(deps: Pick<PlanDeps, 'store'>, userId: string, planId: string): Promise<PlanState> {
  const plan = await readLivePlan(deps, planId);
  if (plan.providerUserId !== userId) throw notOwner();
  return plan;
}
