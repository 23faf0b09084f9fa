// Proves each plan command's decision: creation, the owner-only edit and delete, an edit that changes nothing, and what a deleted plan refuses.
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import type { PlanCommand } from './commands.js';
import { decidePlan } from './decider.js';
import type { PlanEvent, PlanTerms } from './events.js';
import { evolvePlan, type PlanState } from './state.js';

const NOW = new Date('2026-11-27T10:00:00.000Z');
const at = NOW.toISOString();
const planId = '0b5e1c9a-4f1e-4c1e-9a55-0d6f3a1b2c3d';
const terms: PlanTerms = { name: 'Gold', description: 'Gold monthly', priceMlx: '1000', currency: 'mlx', duration: 'monthly' };

const given = (...events: PlanEvent[]): PlanState | undefined =>
  events.reduce<PlanState | undefined>((state, event) => evolvePlan(state, event), undefined);
const created: PlanEvent = {
  type: 'PlanCreated',
  data: { planId, providerUserId: 'owner', ...terms, createdAt: '2026-11-01T00:00:00.000Z' },
};
const deleted: PlanEvent = { type: 'PlanDeleted', data: { planId, providerUserId: 'owner', deletedAt: '2026-11-02T00:00:00.000Z' } };
const update = (userId: string, changes: Partial<PlanTerms> = {}): PlanCommand => ({
  type: 'UpdatePlan',
  data: { planId, userId, terms: { ...terms, ...changes } },
});
const remove = (userId: string): PlanCommand => ({ type: 'DeletePlan', data: { planId, userId } });

function refusal(state: PlanState | undefined, command: PlanCommand): AppError {
  try {
    decidePlan(state, command, NOW);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the command to be refused');
}

describe('CreatePlan', () => {
  const create: PlanCommand = { type: 'CreatePlan', data: { planId, providerUserId: 'owner', terms } };

  it('given no plan, when created, then PlanCreated records the owner, the terms and the time', () => {
    expect(decidePlan(given(), create, NOW)).toEqual([
      { type: 'PlanCreated', data: { planId, providerUserId: 'owner', ...terms, createdAt: at } },
    ]);
  });

  it('given a plan under the same id, when created again, then it is refused, never merged', () => {
    expect(refusal(given(created), create).code).toBe('CONFLICT');
  });

  it('given an id that is not a lower-case UUID, when created, then nothing is decided', () => {
    expect(() => decidePlan(given(), { ...create, data: { ...create.data, planId: 'PLAN' } }, NOW)).toThrow(/UUID/);
  });
});

describe('UpdatePlan', () => {
  it('given the owner changes the price, then PlanUpdated carries the new terms and the price it replaced', () => {
    expect(decidePlan(given(created), update('owner', { priceMlx: '1500' }), NOW)).toEqual([
      { type: 'PlanUpdated', data: { planId, ...terms, priceMlx: '1500', updatedAt: at, previousPriceMlx: '1000' } },
    ]);
  });

  it('given the owner changes only the name, then PlanUpdated has no previous price', () => {
    expect(decidePlan(given(created), update('owner', { name: 'Silver' }), NOW)).toEqual([
      { type: 'PlanUpdated', data: { planId, ...terms, name: 'Silver', updatedAt: at } },
    ]);
  });

  it('given the same terms, when the owner saves them, then nothing happens', () => {
    expect(decidePlan(given(created), update('owner'), NOW)).toEqual([]);
  });

  it('given another user, when editing, then 403 planNotOwner', () => {
    const error = refusal(given(created), update('someone', { name: 'Mine' }));
    expect([error.code, error.messageKey]).toEqual(['FORBIDDEN', 'errors:planNotOwner']);
  });

  it('given no plan or a deleted one, when editing, then 404 planNotFound', () => {
    for (const state of [given(), given(created, deleted)]) {
      const error = refusal(state, update('owner', { name: 'Again' }));
      expect([error.code, error.messageKey]).toEqual(['NOT_FOUND', 'errors:planNotFound']);
    }
  });
});

describe('DeletePlan', () => {
  it('given the owner, when deleting, then PlanDeleted repeats the owner', () => {
    expect(decidePlan(given(created), remove('owner'), NOW)).toEqual([
      { type: 'PlanDeleted', data: { planId, providerUserId: 'owner', deletedAt: at } },
    ]);
  });

  it('given another user, when deleting, then 403 and nothing is decided', () => {
    expect(refusal(given(created), remove('someone')).messageKey).toBe('errors:planNotOwner');
  });

  it('given a deleted plan, when deleted again, then 404 planNotFound', () => {
    expect(refusal(given(created, deleted), remove('owner')).messageKey).toBe('errors:planNotFound');
  });
});
