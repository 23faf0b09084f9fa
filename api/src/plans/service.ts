/**
 * Plans as the api offers them (spec section 7, issue 13, ADR 037): create, read, list (own or
 * another user's), update, delete and the subscriber list. The owner rules live in core; the
 * lists come from the subscriptions read model, after the caller's own last write.
 */
import { AppError } from '@quern/core';
import { billingText, type Language } from '@quern/core/i18n';
import {
  createPlan,
  deletePlan,
  type PlanCreateInput,
  type PlanDeps,
  type PlanOutput,
  type PlanUpdateInput,
  type ListPage,
  nextCursor,
  pageRequest,
  readLivePlan,
  requirePlanOwner,
  type SubscriberOutput,
  toPlanOutput,
  updatePlan,
} from '@quern/core/plans';
import { findUserIdByUsername, getUser, pagePlansOfProvider, pageSubscriptionsOfPlan } from '@quern/projections';
import type { Redis } from 'ioredis';

export interface PlanServiceDeps {
  core: PlanDeps;
  redis: Redis;
  /** Tells the read models' waiters a user wrote at this log position (read-your-writes). */
  noteWrite?: (userId: string, position: bigint) => void;
  /** Resolves once the read models hold the user's last write. */
  awaitOwnWrites?: (userId: string) => Promise<void>;
}

export type PlanService = ReturnType<typeof createPlanService>;

export interface PublicProfile {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
}

export interface PlanPage {
  content: PlanOutput[];
  next_cursor: string | null;
}

export function createPlanService(deps: PlanServiceDeps) {
  const { core } = deps;
  const plansPage = async (providerUserId: string, page?: ListPage): Promise<PlanPage> => {
    const { plans, next } = await pagePlansOfProvider(deps.redis, providerUserId, pageRequest(page));
    return { content: plans, next_cursor: nextCursor(next) };
  };
  return {
    async create(userId: string, input: PlanCreateInput, language: Language): Promise<{ message: string; id: string }> {
      const { plan, position } = await createPlan(core, userId, input);
      deps.noteWrite?.(userId, position);
      return { message: billingText('planCreated', language), id: plan.planId };
    },

    async get(planId: string): Promise<{ content: PlanOutput }> {
      return { content: toPlanOutput(await readLivePlan(core, planId)) };
    },

    /** The caller's plans, oldest first, a page at a time (ADR 057). */
    async mine(userId: string, page?: ListPage): Promise<PlanPage> {
      await deps.awaitOwnWrites?.(userId);
      return plansPage(userId, page);
    },

    /** Another user's plans (their public profile); an unknown user has none. */
    async ofUser(providerUserId: string, page?: ListPage): Promise<PlanPage> {
      return plansPage(providerUserId, page);
    },

    async update(userId: string, input: PlanUpdateInput, language: Language): Promise<{ message: string }> {
      const { id, ...terms } = input;
      const { position } = await updatePlan(core, userId, id, terms);
      if (position === undefined) return { message: billingText('planUnchanged', language) };
      deps.noteWrite?.(userId, position);
      return { message: billingText('planUpdated', language) };
    },

    async delete(userId: string, planId: string, language: Language): Promise<{ message: string }> {
      const { position } = await deletePlan(core, userId, planId);
      if (position !== undefined) deps.noteWrite?.(userId, position);
      return { message: billingText('planDeleted', language) };
    },

    /** The plan's subscribers, for its owner only: id and name (and the subscription, to cancel it). */
    async subscribers(
      userId: string,
      planId: string,
      page?: ListPage,
    ): Promise<{ content: SubscriberOutput[]; next_cursor: string | null }> {
      await requirePlanOwner(core, userId, planId);
      await deps.awaitOwnWrites?.(userId);
      const { rows, next } = await pageSubscriptionsOfPlan(deps.redis, planId, pageRequest(page));
      const content = await Promise.all(
        rows.map(async (row) => {
          const user = await getUser(deps.redis, row.subscriberUserId);
          const name = user ? `${user.first_name} ${user.last_name}`.trim() : '';
          return {
            id: row.subscriberUserId,
            name,
            username: user?.username ?? '',
            subscription_id: row.subscriptionId,
            status: row.status,
          };
        }),
      );
      return { content, next_cursor: nextCursor(next) };
    },

    /** The spec's `GET /api/user/username/{username}`: a user's public name, or 404. */
    async profile(username: string): Promise<{ content: PublicProfile }> {
      const userId = username.length <= 64 ? await findUserIdByUsername(deps.redis, username) : null;
      const user = userId ? await getUser(deps.redis, userId) : null;
      if (!user) throw new AppError('NOT_FOUND', 'errors:userNotFound');
      return { content: { id: user.id, username: user.username, first_name: user.first_name, last_name: user.last_name } };
    },
  };
}
