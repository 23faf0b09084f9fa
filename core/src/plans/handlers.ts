/**
 * Plan handlers (issue 13, ADR 037): create, edit and delete, each one event on `plan-<id>`,
 * decided by decider.ts through the command pipeline (ADR 063). An edit or delete is appended
 * under the revision it was decided on, so two edits racing cannot both win and a deleted plan
 * is never edited again.
 */
import type { Clock } from '../shared/clock.js';
import { foldEvents, handleCommand, readState } from '../shared/command-handler.js';
import type { EventStore, ExpectedRevision } from '../shared/ports/event-store.js';
import { mlxToWire } from '../wallet/money.js';
import type { PlanCommand } from './commands.js';
import type { PlanCreateInput } from './contracts.js';
import { decidePlan, planNotFound, requireOwnedLivePlan } from './decider.js';
import { PLAN_ID_PATTERN, type PlanDeleted, type PlanTerms, type PlanUpdated, planStream } from './events.js';
import { planModel, type PlanState } from './state.js';

export { planNotFound };

export interface PlanDeps {
  store: EventStore;
  clock: Clock;
  newId: () => string;
}

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
  const { state, revision } = await readState(deps.store, planStream(planId), planModel);
  return state ? { plan: state, revision } : undefined;
}

/** A plan that is not deleted, or 404. */
export async function readLivePlan(deps: Pick<PlanDeps, 'store'>, planId: string): Promise<PlanState> {
  const loaded = await loadPlan(deps, planId);
  if (!loaded || loaded.plan.deletedAt !== undefined) throw planNotFound();
  return loaded.plan;
}

/** One command on the plan's stream; the plan after it, and the event and position when one was appended. */
async function handlePlanCommand(deps: PlanDeps, command: PlanCommand) {
  const handled = await handleCommand(deps, planStream(command.data.planId), planModel, (plan, now) => ({
    events: decidePlan(plan, command, now),
    result: undefined,
  }));
  return { plan: foldEvents(planModel, handled.state, handled.events), position: handled.position, event: handled.events[0] };
}

export async function createPlan(
  deps: PlanDeps,
  providerUserId: string,
  input: PlanCreateInput,
): Promise<{ plan: PlanState; position: bigint }> {
  const planId = deps.newId().toLowerCase();
  if (!PLAN_ID_PATTERN.test(planId)) throw new Error(`newId gave ${planId}, not a UUID`);
  const { plan, position } = await handlePlanCommand(deps, { type: 'CreatePlan', data: { planId, providerUserId, terms: termsOf(input) } });
  if (!plan || position === undefined) throw new Error('A created plan folds to a plan');
  return { plan, position };
}

/** What an edit or delete answers: the plan after it; the event and its position when one was appended. */
export interface PlanChanged {
  plan: PlanState;
  position?: bigint;
  event?: PlanUpdated | PlanDeleted;
}

async function changePlan(deps: PlanDeps, command: Exclude<PlanCommand, { type: 'CreatePlan' }>): Promise<PlanChanged> {
  // Only a UUID names a plan: anything else is not found, without reading a stream named by it.
  if (!PLAN_ID_PATTERN.test(command.data.planId)) throw planNotFound();
  const { plan, position, event } = await handlePlanCommand(deps, command);
  // The decider refused anything but an existing plan, so the fold after it is one.
  if (!plan) throw planNotFound();
  const changed = event?.type === 'PlanUpdated' || event?.type === 'PlanDeleted' ? event : undefined;
  return changed ? { plan, position, event: changed } : { plan };
}

/** The owner's edit; an edit that changes nothing appends nothing. */
export function updatePlan(deps: PlanDeps, userId: string, planId: string, input: PlanCreateInput): Promise<PlanChanged> {
  return changePlan(deps, { type: 'UpdatePlan', data: { planId, userId, terms: termsOf(input) } });
}

/** The owner's delete: the plan takes no new subscribers; its subscriptions end with their paid period. */
export function deletePlan(deps: PlanDeps, userId: string, planId: string): Promise<PlanChanged> {
  return changePlan(deps, { type: 'DeletePlan', data: { planId, userId } });
}

/** The owner check alone, for reads only the owner may make (the subscriber list). */
export async function requirePlanOwner(deps: Pick<PlanDeps, 'store'>, userId: string, planId: string): Promise<PlanState> {
  const plan = await readLivePlan(deps, planId);
  return requireOwnedLivePlan(plan, userId);
}
