/**
 * Plan commands: what a handler asks the plan decider to do to one `plan-<id>` stream. The terms
 * are already in the log's form (price as whole-MLX decimal text); the plan id is made by the
 * caller (a fresh UUID), so a created plan's stream starts empty.
 */
import type { PlanTerms } from './events.js';

export interface CreatePlan {
  type: 'CreatePlan';
  data: { planId: string; providerUserId: string; terms: PlanTerms };
}

/** The owner's edit: the terms after the edit, whole. */
export interface UpdatePlan {
  type: 'UpdatePlan';
  data: { planId: string; userId: string; terms: PlanTerms };
}

/** The owner's delete: the plan takes no new subscribers. */
export interface DeletePlan {
  type: 'DeletePlan';
  data: { planId: string; userId: string };
}

export type PlanCommand = CreatePlan | UpdatePlan | DeletePlan;
