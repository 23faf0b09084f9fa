/**
 * Pure plan decisions: given a plan's state (undefined before it is created), a command and the
 * time as data, which events happen, or which refusal. No I/O, no clock, no randomness.
 *
 * Only the owner (the plan's provider) edits or deletes, checked here on the folded stream, so
 * every caller (REST, tRPC, tools) gets the same rule: anyone else gets 403 and nothing is
 * appended. A deleted plan is not found: it is never edited or deleted again.
 */
import { assertNever } from '../shared/assert.js';
import { AppError } from '../shared/errors.js';
import type { CreatePlan, DeletePlan, PlanCommand, UpdatePlan } from './commands.js';
import { PLAN_ID_PATTERN, type PlanCreated, type PlanDeleted, type PlanEvent, type PlanUpdated } from './events.js';
import { sameTerms, type PlanState } from './state.js';

export const planNotFound = () => new AppError('NOT_FOUND', 'errors:planNotFound');
export const planNotOwner = () => new AppError('FORBIDDEN', 'errors:planNotOwner');

/** The plan as its owner may change it: live and theirs, or the refusal. */
export function requireOwnedLivePlan(plan: PlanState | undefined, userId: string): PlanState {
  if (!plan || plan.deletedAt !== undefined) throw planNotFound();
  if (plan.providerUserId !== userId) throw planNotOwner();
  return plan;
}

function decideCreate(plan: PlanState | undefined, data: CreatePlan['data'], at: string): PlanCreated[] {
  if (!PLAN_ID_PATTERN.test(data.planId)) throw new Error(`A plan id must be a lower-case UUID, not ${data.planId}`);
  // Plan ids are fresh UUIDs, so an existing stream means the id was reused: refuse, never merge.
  if (plan) throw new AppError('CONFLICT', 'errors:internal');
  return [{ type: 'PlanCreated', data: { planId: data.planId, providerUserId: data.providerUserId, ...data.terms, createdAt: at } }];
}

/** An edit that changes nothing records nothing; a price change keeps the price it replaced. */
function decideUpdate(state: PlanState | undefined, data: UpdatePlan['data'], at: string): PlanUpdated[] {
  const plan = requireOwnedLivePlan(state, data.userId);
  if (sameTerms(plan.terms, data.terms)) return [];
  const priceChanged = plan.terms.priceMlx !== data.terms.priceMlx;
  return [
    {
      type: 'PlanUpdated',
      data: {
        planId: plan.planId,
        ...data.terms,
        updatedAt: at,
        ...(priceChanged ? { previousPriceMlx: plan.terms.priceMlx } : {}),
      },
    },
  ];
}

/** The owner is repeated on the event so a read model can drop the plan from the owner's list from it alone. */
function decideDelete(state: PlanState | undefined, data: DeletePlan['data'], at: string): PlanDeleted[] {
  const plan = requireOwnedLivePlan(state, data.userId);
  return [{ type: 'PlanDeleted', data: { planId: plan.planId, providerUserId: plan.providerUserId, deletedAt: at } }];
}

export function decidePlan(state: PlanState | undefined, command: PlanCommand, now: Date): PlanEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'CreatePlan':
      return decideCreate(state, command.data, at);
    case 'UpdatePlan':
      return decideUpdate(state, command.data, at);
    case 'DeletePlan':
      return decideDelete(state, command.data, at);
    default:
      return assertNever(command);
  }
}
