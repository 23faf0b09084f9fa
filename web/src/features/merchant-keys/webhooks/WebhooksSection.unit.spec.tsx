// Proves the Webhooks section of the API Direct page: no endpoints says so; adding one sends the
// URL and the ticked events, then shows the signing secret once with Copy until Done; a refused
// URL shows the server's field message; Delete asks first and Cancel keeps the endpoint; Rotate
// secret asks first and shows the new secret once (a refusal shows its reason); the
// delivery log shows time, event, attempt, status code, duration and delivered, and Redeliver
// asks for that delivery again; Send test event sends the endpoint's id, says it was sent and
// opens the log with the test delivery, and the per-minute limit's refusal names the wait
// (issue 25); the section speaks Spanish.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byRole, click, textOf, typeInto, waitFor } from '../../../../test/dom.js';
import type { Rendered } from '../../../../test/renderForTest.js';
import { type FakeCall, type FakeProcedures, installDialogStandIn, renderWalletPage } from '../../../../test/walletTestKit.js';
import { WebhooksSection } from './WebhooksSection.js';

beforeAll(installDialogStandIn);

let rendered: (Rendered & { calls: FakeCall[] }) | undefined;
afterEach(() => rendered?.unmount());

const ENDPOINT = {
  id: `we_${'1'.repeat(32)}`,
  object: 'webhook_endpoint',
  url: 'https://shop.example/hooks',
  events: ['order.paid'],
  created_at: '2026-11-24T12:00:00.000Z',
};
const SECRET = `whsec_${'Q'.repeat(43)}=`;
const DELIVERY = {
  id: `msg_${'2'.repeat(32)}`,
  object: 'webhook_delivery',
  endpoint: ENDPOINT.id,
  event_type: 'order.paid',
  status: 'delivered',
  created_at: '2026-11-24T12:01:00.000Z',
  attempts: [
    {
      run: 0,
      attempt: 1,
      started_at: '2026-11-24T12:01:00.000Z',
      duration_ms: 480,
      status_code: 500,
      error: 'http_status',
      delivered: false,
    },
    { run: 0, attempt: 2, started_at: '2026-11-24T12:01:05.000Z', duration_ms: 37, status_code: 200, error: null, delivered: true },
  ],
};
const list = (data: unknown[]) => ({ data: { object: 'list', data } });

async function renderSection(procedures: FakeProcedures, language: 'en' | 'es' = 'en') {
  rendered = await renderWalletPage(<WebhooksSection />, { procedures, path: '/api-direct', language });
  return rendered.container;
}

const urlInput = (container: HTMLElement, label: string) => {
  const element = [...container.querySelectorAll('label')].find((l) => l.textContent === label);
  return document.getElementById(element?.htmlFor ?? '') as HTMLInputElement;
};
const checkbox = (container: HTMLElement, text: string) =>
  [...container.querySelectorAll('label')].find((l) => l.textContent?.includes(text))?.querySelector('input') as HTMLInputElement;

describe('WebhooksSection', () => {
  it('given no endpoint, when one is added, then the URL and events are sent and the secret is shown once', async () => {
    const container = await renderSection({
      'webhooks.list': (_input, call) => (call === 0 ? list([]) : list([ENDPOINT])),
      'webhooks.create': () => ({ data: { ...ENDPOINT, secret: SECRET } }),
    });
    await waitFor(() => expect(textOf(container)).toContain('No webhook endpoints yet.'));
    typeInto(urlInput(container, 'Endpoint URL'), ENDPOINT.url);
    click(checkbox(container, 'Order paid'));
    click(byRole(container, 'button', 'Add endpoint'));
    await waitFor(() => expect(container.querySelector('[data-testid="webhook-secret"]')?.textContent).toBe(SECRET));
    expect(rendered?.calls.find((c) => c.path === 'webhooks.create')?.input).toEqual({ url: ENDPOINT.url, events: ['order.paid'] });
    expect(textOf(container)).toContain('it is shown only this once');
    expect(byRole(container, 'button', 'Copy')).toBeTruthy();
    await waitFor(() => expect(container.querySelector('[data-testid="webhook-endpoint"]')?.textContent).toContain(ENDPOINT.url));
    click(byRole(container, 'button', 'Done'));
    await waitFor(() => expect(container.querySelector('[data-testid="webhook-secret"]')).toBeNull());
  });

  it('when the list cannot be read, then it says so instead of claiming there are no endpoints', async () => {
    const container = await renderSection({
      'webhooks.list': () => ({ error: { status: 500, code: 'UNAVAILABLE', messageKey: 'errors:internal', message: 'down' } }),
    });
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toContain('could not be loaded'));
    expect(textOf(container)).not.toContain('No webhook endpoints yet.');
  });

  it('when the server refuses the URL, then its field message is shown', async () => {
    const container = await renderSection({
      'webhooks.list': () => list([]),
      'webhooks.create': () => ({
        error: {
          status: 400,
          code: 'VALIDATION',
          messageKey: 'errors:webhookUrlPrivate',
          message: 'private',
          fields: { url: 'errors:webhookUrlPrivate' },
        },
      }),
    });
    await waitFor(() => expect(textOf(container)).toContain('No webhook endpoints yet.'));
    typeInto(urlInput(container, 'Endpoint URL'), 'http://10.0.0.1/');
    click(byRole(container, 'button', 'Add endpoint'));
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toContain('non-public address'));
    expect(container.querySelector('[data-testid="webhook-secret"]')).toBeNull();
  });

  it('Delete asks first: Cancel keeps the endpoint, Yes deletes it', async () => {
    const container = await renderSection({
      'webhooks.list': (_input, call) => (call === 0 ? list([ENDPOINT]) : list([])),
      'webhooks.remove': () => ({ data: { id: ENDPOINT.id, object: 'webhook_endpoint', deleted: true } }),
    });
    await waitFor(() => expect(textOf(container)).toContain(ENDPOINT.url));
    click(byRole(container, 'button', 'Delete'));
    expect(textOf(container)).toContain('Delete this endpoint? No more events will be sent to it.');
    click(byRole(container, 'button', 'Cancel'));
    expect(rendered?.calls.some((c) => c.path === 'webhooks.remove')).toBe(false);
    click(byRole(container, 'button', 'Delete'));
    click(byRole(container, 'button', 'Yes, delete'));
    await waitFor(() => expect(textOf(container)).toContain('No webhook endpoints yet.'));
    expect(rendered?.calls.find((c) => c.path === 'webhooks.remove')?.input).toEqual({ id: ENDPOINT.id });
  });

  it('Rotate secret asks first: Cancel rotates nothing, Yes shows the new secret once, saying the old one signs for 24 hours', async () => {
    const rotated = `whsec_${'R'.repeat(43)}=`;
    const container = await renderSection({
      'webhooks.list': () => list([ENDPOINT]),
      'webhooks.rotateSecret': () => ({ data: { ...ENDPOINT, secret: rotated } }),
    });
    await waitFor(() => expect(textOf(container)).toContain(ENDPOINT.url));
    click(byRole(container, 'button', 'Rotate secret'));
    expect(textOf(container)).toContain('For 24 hours every webhook is signed with the current secret too');
    click(byRole(container, 'button', 'Cancel'));
    expect(rendered?.calls.some((c) => c.path === 'webhooks.rotateSecret')).toBe(false);
    click(byRole(container, 'button', 'Rotate secret'));
    click(byRole(container, 'button', 'Yes, rotate'));
    await waitFor(() => expect(container.querySelector('[data-testid="webhook-secret"]')?.textContent).toBe(rotated));
    expect(rendered?.calls.find((c) => c.path === 'webhooks.rotateSecret')?.input).toEqual({ id: ENDPOINT.id });
    expect(textOf(container)).toContain('New signing secret');
    expect(textOf(container)).toContain('For the next 24 hours each webhook carries a signature made with the previous secret');
    click(byRole(container, 'button', 'Done'));
    await waitFor(() => expect(container.querySelector('[data-testid="webhook-secret"]')).toBeNull());
  });

  it('when the rotation is refused, then the reason is shown and no secret appears', async () => {
    const container = await renderSection({
      'webhooks.list': () => list([ENDPOINT]),
      'webhooks.rotateSecret': () => ({
        error: { status: 429, code: 'RATE_LIMITED', messageKey: 'errors:tooManyRequests', message: 'slow down' },
      }),
    });
    await waitFor(() => expect(textOf(container)).toContain(ENDPOINT.url));
    click(byRole(container, 'button', 'Rotate secret'));
    click(byRole(container, 'button', 'Yes, rotate'));
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toContain('Too many requests'));
    expect(container.querySelector('[data-testid="webhook-secret"]')).toBeNull();
  });

  it("a refused rotation shows its reason with the server's parameters", async () => {
    const container = await renderSection({
      'webhooks.list': () => list([ENDPOINT]),
      'webhooks.rotateSecret': () => ({
        error: { status: 429, code: 'RATE_LIMITED', messageKey: 'errors:tooManyAttempts', message: 'x', params: { minutes: 7 } },
      }),
    });
    await waitFor(() => expect(textOf(container)).toContain(ENDPOINT.url));
    click(byRole(container, 'button', 'Rotate secret'));
    click(byRole(container, 'button', 'Yes, rotate'));
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toContain('try again in 7 minutes'));
  });

  it("a refused rotation with a reason this app has no text for shows the server's text", async () => {
    const container = await renderSection({
      'webhooks.list': () => list([ENDPOINT]),
      'webhooks.rotateSecret': () => ({
        error: { status: 409, code: 'CONFLICT', messageKey: 'errors:notInThisVersion', message: 'The endpoint changed meanwhile.' },
      }),
    });
    await waitFor(() => expect(textOf(container)).toContain(ENDPOINT.url));
    click(byRole(container, 'button', 'Rotate secret'));
    click(byRole(container, 'button', 'Yes, rotate'));
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toContain('The endpoint changed meanwhile.'));
  });

  it('the delivery log shows the latest attempt of each delivery, and Redeliver asks for it again', async () => {
    const container = await renderSection({
      'webhooks.list': () => list([ENDPOINT]),
      'webhooks.deliveries': () => ({ data: { object: 'list', data: [DELIVERY], has_more: false } }),
      'webhooks.redeliver': () => ({ data: DELIVERY }),
    });
    await waitFor(() => expect(textOf(container)).toContain(ENDPOINT.url));
    click(byRole(container, 'button', 'Delivery log'));
    const row = await waitFor(() => {
      const found = container.querySelector('[data-testid="webhook-log"] tbody tr');
      if (!found) throw new Error('no row yet');
      return found;
    });
    const cells = [...row.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells.slice(1, 6)).toEqual(['Order paid', '2', '200', '37 ms', 'Yes']);
    click(byRole(row as HTMLElement, 'button', 'Redeliver'));
    await waitFor(() =>
      expect(rendered?.calls.find((c) => c.path === 'webhooks.redeliver')?.input).toEqual({ id: ENDPOINT.id, delivery: DELIVERY.id }),
    );
  });

  it('Send test event sends it to that endpoint, says so and opens the log with the test delivery', async () => {
    const test = { ...DELIVERY, id: `msg_${'3'.repeat(32)}`, event_type: 'test.ping' };
    const container = await renderSection({
      'webhooks.list': () => list([ENDPOINT]),
      'webhooks.sendTest': () => ({ data: { ...test, status: 'pending', attempts: [] } }),
      'webhooks.deliveries': () => ({ data: { object: 'list', data: [test], has_more: false } }),
    });
    await waitFor(() => expect(textOf(container)).toContain(ENDPOINT.url));
    const button = container.querySelector('[data-testid="webhook-send-test"]') as HTMLElement;
    expect(button.textContent).toBe('Send test event');
    expect(button.getAttribute('aria-label')).toBe(`Send test event to ${ENDPOINT.url}`);
    click(button);
    await waitFor(() => expect(container.querySelector('[role="status"]')?.textContent).toContain(`Test event sent to ${ENDPOINT.url}.`));
    expect(rendered?.calls.filter((c) => c.path === 'webhooks.sendTest').map((c) => c.input)).toEqual([{ id: ENDPOINT.id }]);
    const row = await waitFor(() => {
      const found = container.querySelector('[data-testid="webhook-log"] tbody tr');
      if (!found) throw new Error('no row yet');
      return found;
    });
    expect(row.querySelectorAll('td')[1]?.textContent).toBe('Test event');
  });

  it('Send test event past the limit says how long to wait', async () => {
    const container = await renderSection({
      'webhooks.list': () => list([ENDPOINT]),
      'webhooks.sendTest': () => ({
        error: { status: 429, code: 'RATE_LIMITED', messageKey: 'errors:tooManyRequests', message: 'x', params: { retryAfterSeconds: 42 } },
      }),
      'webhooks.deliveries': () => ({ data: { object: 'list', data: [], has_more: false } }),
    });
    await waitFor(() => expect(textOf(container)).toContain(ENDPOINT.url));
    click(container.querySelector('[data-testid="webhook-send-test"]') as HTMLElement);
    await waitFor(() =>
      expect(container.querySelector('[role="alert"]')?.textContent).toBe(
        'You have sent 10 test events to this endpoint in the last minute. Try again in 42 seconds.',
      ),
    );
  });

  it('speaks Spanish', async () => {
    const container = await renderSection({ 'webhooks.list': () => list([{ ...ENDPOINT, events: [] }]) }, 'es');
    await waitFor(() => expect(textOf(container)).toContain('Todos los eventos'));
    expect(textOf(container)).toContain('Añadir endpoint');
    expect(byRole(container, 'button', 'Eliminar')).toBeTruthy();
    expect(byRole(container, 'button', 'Rotar secreto')).toBeTruthy();
  });
});
