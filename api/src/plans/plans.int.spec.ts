// Proves the spec's plan calls (section 7) over real HTTP with real SQLite and Redis: create, read,
// own list and another user's list, update (an unchanged edit appends nothing), delete; every
// refusal of the form's rules (price 12.5, currency usd, duration weekly or yearly, an empty
// field) is a 400 naming the field and appends nothing; only the owner may update, delete or list
// subscribers (403, nothing changes); `GET /api/user/username/{username}` answers the public name;
// a visitor gets 401 before any input is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser, type TestUser } from '../../test/users.js';

let quern: TestQuern;
let owner: TestUser;
let other: TestUser;

const plan = { name: 'Gold', description: 'Monthly gold tier', price: 250000, currency: 'mlx', duration: 'monthly' };
const call = (user: TestUser | undefined, method: 'GET' | 'POST', path: string, body?: unknown) =>
  quern.call(method, path, { ...(user ? { cookie: user.cookie } : {}), ...(body === undefined ? {} : { body }) });

/** The owner's plan events (the price-change job's own PlanPriceChangeAnnounced comes when it will). */
const OWNER_EVENTS = new Set(['PlanCreated', 'PlanUpdated', 'PlanDeleted']);

async function planEvents(): Promise<number> {
  let count = 0;
  let after: bigint | undefined;
  for (;;) {
    const page = await quern.store.readAll({ after, maxCount: 5000 });
    count += page.filter((e) => OWNER_EVENTS.has(e.type)).length;
    if (page.length < 5000) return count;
    after = page[page.length - 1]?.position;
  }
}

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000' });
  owner = await registerUser(quern, 'plan_owner');
  other = await registerUser(quern, 'plan_other');
});
afterAll(async () => {
  await quern?.stop();
});

describe('plan calls', () => {
  let planId: string;

  it('creates a plan, answers it by id, and lists it as the owner’s and on the owner’s profile', async () => {
    const created = await call(owner, 'POST', '/api/subscription-plans/create', plan);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ message: 'Subscription plan created.', id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    planId = created.body.id;
    const expected = {
      id: planId,
      ...plan,
      provider_id: owner.id,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    };
    expect((await call(other, 'POST', '/api/subscription-plans', { id: planId })).body).toEqual({ content: expected });
    expect((await call(owner, 'POST', '/api/subscription-plans/all')).body).toEqual({ content: [expected], next_cursor: null });
    expect((await call(other, 'POST', '/api/subscription-plans/all')).body).toEqual({ content: [], next_cursor: null });
    const theirs = await call(other, 'GET', `/api/subscription-plans/all?user_id=${encodeURIComponent(owner.id)}`);
    expect(theirs.body).toEqual({ content: [expected], next_cursor: null });
    const profile = await call(other, 'GET', `/api/user/username/${owner.name}`);
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual({ content: { id: owner.id, username: owner.name, first_name: 'Test', last_name: 'User' } });
    expect((await call(other, 'GET', '/api/user/username/nobody_here')).status).toBe(404);
  });

  it.each([
    [{ ...plan, price: 12.5 }, 'price', 'Price must be a whole number of MLX, digits only.'],
    [{ ...plan, price: '12.5' }, 'price', 'Price must be a whole number of MLX, digits only.'],
    [{ ...plan, price: 0 }, 'price', 'Price must be at least 1 MLX.'],
    [{ ...plan, currency: 'usd' }, 'currency', 'Only Millix (MLX) is available as the currency.'],
    [{ ...plan, duration: 'weekly' }, 'duration', 'Only Monthly is available for now.'],
    [{ ...plan, duration: 'yearly' }, 'duration', 'Only Monthly is available for now.'],
    [{ ...plan, name: '  ' }, 'name', 'Name is required.'],
    [{ ...plan, description: '' }, 'description', 'Description is required.'],
    [{ name: 'x', description: 'y', currency: 'mlx', duration: 'monthly' }, 'price', 'Price is required.'],
  ])('refuses %j with 400 on its field and appends nothing', async (body, field, message) => {
    const before = await planEvents();
    const answer = await call(owner, 'POST', '/api/subscription-plans/create', body);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
    expect(Object.keys(answer.body.fields)).toContain(field);
    expect(await planEvents()).toBe(before);
  });

  it('accepts a digits-only price string and answers an integer', async () => {
    const created = await call(owner, 'POST', '/api/subscription-plans/create', { ...plan, name: 'Text price', price: '1000' });
    expect(created.status).toBe(200);
    expect((await call(owner, 'POST', '/api/subscription-plans', { id: created.body.id })).body.content.price).toBe(1000);
  });

  it('lets only the owner update, delete or list subscribers: anyone else gets 403 and nothing changes', async () => {
    const before = await planEvents();
    const update = await call(other, 'POST', '/api/subscription-plans/update', { id: planId, ...plan, name: 'Stolen' });
    expect(update.status).toBe(403);
    expect(update.body.message).toBe("Only the plan's owner can do this.");
    expect((await call(other, 'POST', '/api/subscription-plans/delete', { id: planId })).status).toBe(403);
    expect((await call(other, 'POST', '/api/subscription-plans/subscribers', { id: planId })).status).toBe(403);
    expect(await planEvents()).toBe(before);
    expect((await call(owner, 'POST', '/api/subscription-plans', { id: planId })).body.content.name).toBe('Gold');
  });

  it('updates as the owner; an unchanged edit says so and appends nothing', async () => {
    const updated = await call(owner, 'POST', '/api/subscription-plans/update', { id: planId, ...plan, price: 300000 });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ message: 'Subscription plan updated.' });
    expect((await call(owner, 'POST', '/api/subscription-plans', { id: planId })).body.content.price).toBe(300000);
    const before = await planEvents();
    const same = await call(owner, 'POST', '/api/subscription-plans/update', { id: planId, ...plan, price: 300000 });
    expect(same.body).toEqual({ message: 'Nothing to update: the plan is unchanged.' });
    expect(await planEvents()).toBe(before);
    expect((await call(owner, 'POST', '/api/subscription-plans/subscribers', { id: planId })).body).toEqual({
      content: [],
      next_cursor: null,
    });
  });

  it('answers 404 for unknown ids and 401 to a visitor', async () => {
    expect((await call(owner, 'POST', '/api/subscription-plans', { id: 'nope' })).status).toBe(404);
    expect((await call(owner, 'POST', '/api/subscription-plans', { id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await call(owner, 'POST', '/api/subscription-plans/update', { id: 'nope', ...plan })).status).toBe(404);
    expect((await call(undefined, 'POST', '/api/subscription-plans/create', plan)).status).toBe(401);
    expect((await call(undefined, 'GET', '/api/subscription-plans/all?user_id=x')).status).toBe(401);
  });

  it('deletes as the owner: gone from reads and lists, and deleting again is 404', async () => {
    const deleted = await call(owner, 'POST', '/api/subscription-plans/delete', { id: planId });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Subscription plan deleted.' });
    expect((await call(other, 'POST', '/api/subscription-plans', { id: planId })).status).toBe(404);
    const mine = (await call(owner, 'POST', '/api/subscription-plans/all')).body.content as Array<{ id: string }>;
    expect(mine.map((p) => p.id)).not.toContain(planId);
    expect((await call(owner, 'POST', '/api/subscription-plans/delete', { id: planId })).status).toBe(404);
  });

  it('answers in Spanish when asked', async () => {
    const answer = await quern.call('POST', '/api/subscription-plans/create', {
      cookie: owner.cookie,
      body: { ...plan, duration: 'weekly' },
      headers: { 'accept-language': 'es' },
    });
    expect(answer.body.message).toBe('Por ahora solo está disponible Mensual.');
  });
});
