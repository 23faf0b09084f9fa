// Proves the cursor pages of the plan lists through the whole Quern (ADR 057): a provider with
// 1,205 plans (written fast through core, read back through the projections) is walked by the
// spec's POST /api/subscription-plans/all, by GET /api/subscription-plans/all?user_id= and by the
// web app's plans.mine, and every plan is reached exactly once in creation order; without a page
// a caller gets the first 1,000 and a next_cursor; a malformed cursor or limit is a 400 that says
// what to send (in English and Spanish) and changes nothing.
import { randomUUID } from 'node:crypto';
import { systemClock } from '@quern/core';
import { createPlan } from '@quern/core/plans';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser, type TestUser } from '../../test/users.js';

const COUNT = 1_205;
let quern: TestQuern;
let provider: TestUser;
let reader: TestUser;
const created: string[] = [];

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000' });
  provider = await registerUser(quern, 'page_provider');
  reader = await registerUser(quern, 'page_reader');
  const deps = { store: quern.store, clock: systemClock, newId: randomUUID };
  for (let i = 0; i < COUNT; i++) {
    const terms = {
      name: `Plan ${i}`,
      description: `Plan number ${i}`,
      price: 1_000n + BigInt(i),
      currency: 'mlx' as const,
      duration: 'monthly' as const,
    };
    created.push((await createPlan(deps, provider.id, terms)).plan.planId);
  }
  // The projections have caught up once the last plan is listed.
  await eventually(async () => {
    const page = await quern.call('GET', `/api/subscription-plans/all?user_id=${provider.id}&limit=1000&cursor=${await lastPageCursor()}`, {
      cookie: reader.cookie,
    });
    return page.body.content?.some((p: { id: string }) => p.id === created.at(-1)) ? true : undefined;
  }, 60_000);
}, 180_000);

afterAll(async () => {
  await quern?.stop();
});

async function lastPageCursor(): Promise<string> {
  const first = await quern.call('POST', '/api/subscription-plans/all', { cookie: provider.cookie, body: { limit: 1000 } });
  return first.body.next_cursor ?? '';
}

type Page = { content: { id: string }[]; next_cursor: string | null };

async function walk(read: (cursor: string | undefined) => Promise<Page>): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await read(cursor);
    seen.push(...page.content.map((p) => p.id));
    if (page.next_cursor === null) return seen;
    cursor = page.next_cursor;
  }
  throw new Error('the walk did not end');
}

describe('plan lists past 1,000', () => {
  it('the spec call pages by cursor: every plan exactly once, oldest first', async () => {
    const seen = await walk(async (cursor) => {
      const answer = await quern.call('POST', '/api/subscription-plans/all', {
        cookie: provider.cookie,
        body: { limit: 250, ...(cursor ? { cursor } : {}) },
      });
      expect(answer.status).toBe(200);
      return answer.body;
    });
    expect(seen).toEqual(created);
  });

  it("another user's plans by GET, and the web app's procedure, reach every plan exactly once", async () => {
    const byGet = await walk(async (cursor) => {
      const answer = await quern.call(
        'GET',
        `/api/subscription-plans/all?user_id=${provider.id}&limit=400${cursor ? `&cursor=${cursor}` : ''}`,
        {
          cookie: reader.cookie,
        },
      );
      expect(answer.status).toBe(200);
      return answer.body;
    });
    expect(byGet).toEqual(created);
    const byTrpc = await walk(async (cursor) => {
      const input = encodeURIComponent(JSON.stringify(cursor ? { cursor } : {}));
      const answer = await quern.call('GET', `/trpc/plans.mine?input=${input}`, { cookie: provider.cookie });
      expect(answer.status).toBe(200);
      return answer.body.result.data;
    });
    expect(byTrpc).toEqual(created);
  });

  it('without a page a caller gets the first 1,000 and a cursor to the rest', async () => {
    const answer = await quern.call('POST', '/api/subscription-plans/all', { cookie: provider.cookie });
    expect(answer.body.content).toHaveLength(1_000);
    expect(answer.body.next_cursor).toMatch(/^c1_[0-9a-z]+$/);
  });

  it('a malformed cursor or limit is a 400 saying what to send, in English and Spanish', async () => {
    for (const cursor of ['nope', 'c1_', 'c1_ZZ', `c1_${'z'.repeat(14)}`, 42]) {
      const answer = await quern.call('POST', '/api/subscription-plans/all', { cookie: provider.cookie, body: { cursor } });
      expect([JSON.stringify(cursor), answer.status]).toEqual([JSON.stringify(cursor), 400]);
      expect(answer.body.message).toBe('Give the next_cursor of the previous page as cursor, or leave it out for the first page.');
    }
    const spanish = await quern.call('GET', `/api/subscription-plans/all?user_id=${provider.id}&cursor=broken`, {
      cookie: reader.cookie,
      headers: { 'accept-language': 'es' },
    });
    expect([spanish.status, spanish.body.message]).toEqual([
      400,
      'Indique como cursor el next_cursor de la página anterior, u omítalo para la primera página.',
    ]);
    for (const limit of [0, 1_001, 2.5, '10']) {
      const answer = await quern.call('POST', '/api/subscription-plans/all', { cookie: provider.cookie, body: { limit } });
      expect([JSON.stringify(limit), answer.status, answer.body.message]).toEqual([
        JSON.stringify(limit),
        400,
        'limit must be a whole number from 1 to 1000.',
      ]);
    }
    const trpc = await quern.call('GET', `/trpc/subscriptions.mine?input=${encodeURIComponent(JSON.stringify({ cursor: 'x' }))}`, {
      cookie: provider.cookie,
    });
    expect(trpc.status).toBe(400);
    const subscribers = await quern.call('POST', '/api/subscription-plans/subscribers', {
      cookie: provider.cookie,
      body: { id: created[0], cursor: 'c1_??' },
    });
    expect(subscribers.status).toBe(400);
    const mine = await quern.call('GET', '/api/subscriptions/all?limit=abc', { cookie: provider.cookie });
    expect([mine.status, mine.body.message]).toEqual([400, 'limit must be a whole number from 1 to 1000.']);
  });
});
