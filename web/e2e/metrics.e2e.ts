// Proves /metrics during a real browser run (ADR 053): with the token global-setup gives the
// server, a scrape after someone registers in Chromium and reloads their account page parses as
// Prometheus text, holds every family the operator relies on, and shows the browser's calls
// under their procedure and route names with their counters moved; without the token it is refused.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { type PrometheusFamily, parsePrometheusText } from '@quern/test-support/prometheus-text';
import { uniqueUser } from './users.js';

const FAMILIES = [
  'quern_http_requests_total',
  'quern_http_request_duration_seconds',
  'quern_event_store_appends_total',
  'quern_event_store_appended_events_total',
  'quern_event_store_append_duration_seconds',
  'quern_projection_lag_events',
  'quern_projection_lag_seconds',
  'quern_queue_jobs',
  'quern_webhook_deliveries_total',
  'quern_settlements_pending',
  'quern_reserve_balance_mlx',
  'process_resident_memory_bytes',
  'nodejs_heap_size_used_bytes',
  'nodejs_eventloop_lag_seconds',
];

function token(): string {
  const value = process.env.QUERN_E2E_METRICS_TOKEN;
  if (!value) throw new Error('QUERN_E2E_METRICS_TOKEN is not set: run through playwright (web/e2e/global-setup.ts)');
  return value;
}

async function scrape(request: APIRequestContext): Promise<Map<string, PrometheusFamily>> {
  const response = await request.get('/metrics', { headers: { authorization: `Bearer ${token()}` } });
  expect(response.status()).toBe(200);
  return parsePrometheusText(await response.text());
}

/** The sum of a family's samples whose labels include these. */
const total = (families: Map<string, PrometheusFamily>, name: string, labels: Record<string, string> = {}): number =>
  (families.get(name)?.samples ?? [])
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

test('a scrape after browser traffic has every family, and the traffic counted under bounded names', async ({ page, request }) => {
  const before = await scrape(request);

  const user = uniqueUser();
  await page.goto('/register');
  await page.getByLabel('Username').fill(user.userName);
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Phone', { exact: true }).fill(user.phone);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.reload();
  await expect(page.locator('.account-username')).toHaveText(user.userName);

  const after = await scrape(request);
  for (const name of FAMILIES) {
    expect(after.get(name)?.samples.length ?? 0, name).toBeGreaterThan(0);
  }
  expect(total(after, 'quern_http_requests_total')).toBeGreaterThan(total(before, 'quern_http_requests_total'));
  expect(total(after, 'quern_http_requests_total', { route: 'web', status: '200' })).toBeGreaterThan(
    total(before, 'quern_http_requests_total', { route: 'web', status: '200' }),
  );
  expect(total(after, 'quern_event_store_appends_total', { outcome: 'ok' })).toBeGreaterThan(
    total(before, 'quern_event_store_appends_total', { outcome: 'ok' }),
  );
  const routes = new Set(after.get('quern_http_requests_total')?.samples.map((s) => s.labels.route));
  expect([...routes].some((route) => route?.startsWith('/trpc/identity.'))).toBe(true);
  // Route labels are patterns and procedure names: never the user's name or an id.
  for (const route of routes) expect(route).not.toContain(user.userName);
  for (const queue of ['settlement', 'webhook-delivery', 'welcome-email']) {
    expect(
      after.get('quern_queue_jobs')?.samples.some((s) => s.labels.queue === queue),
      queue,
    ).toBe(true);
  }
});

test('without the token, or with a wrong one, /metrics is refused', async ({ request }) => {
  expect((await request.get('/metrics')).status()).toBe(401);
  expect((await request.get('/metrics', { headers: { authorization: `Bearer ${token()}0` } })).status()).toBe(401);
});
