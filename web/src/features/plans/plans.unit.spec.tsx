// Proves the plan screens (issue 13): the list's 'No data' card and links, the owner's Edit,
// Delete and Subscribers against everyone else's Subscribe, the form's client checks (all
// required, digits-only price sent as an integer, Monthly the only duration), the server's field
// refusals beside the fields and in the message area, Update enabled only after a change and
// disabled again after submit, 'Data retrieval failed', delete through its route, the subscribe
// confirmation and its refusals, the public profile, and Spanish.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byLabel, byRole, click, submit, textOf, typeInto, waitFor } from '../../../test/dom.js';
import type { Rendered } from '../../../test/renderForTest.js';
import { type FakeCall, type FakeProcedures, installDialogStandIn } from '../../../test/walletTestKit.js';
import { formatStyledDate } from '../../ui/displayFormat.js';
import {
  OTHER_ID,
  OWNER_ID,
  choose,
  failure,
  locationOf,
  openDialog,
  planFixture,
  renderPlans,
  subscriptionFixture,
  typeIntoTextArea,
} from '../../../test/plansTestKit.js';

beforeAll(installDialogStandIn);

let rendered: (Rendered & { calls: FakeCall[] }) | undefined;
afterEach(() => rendered?.unmount());

async function renderAt(path: string, procedures: FakeProcedures, options: { userId?: string; language?: 'en' | 'es' } = {}) {
  rendered = await renderPlans(procedures, { path, ...options });
  return rendered.container;
}

const button = (container: HTMLElement, name: string) => byRole(container, 'button', name) as HTMLButtonElement;
const hasButton = (container: HTMLElement, name: string) => [...container.querySelectorAll('button')].some((b) => b.textContent === name);
const callsTo = (path: string) => rendered?.calls.filter((c) => c.path === path) ?? [];
const alertText = (container: HTMLElement) => container.querySelector('[role="alert"]')?.textContent ?? null;
const plan = planFixture();
const planAnswer = { data: { content: plan } };

async function fillForm(container: HTMLElement, { price = '1,500' }: { price?: string } = {}) {
  typeInto(byLabel(container, 'Name'), 'Silver');
  typeIntoTextArea(byLabel(container, 'Description') as unknown as HTMLTextAreaElement, 'Some articles.');
  typeInto(byLabel(container, 'Price'), price);
  choose(byLabel(container, 'Currency') as unknown as HTMLSelectElement, 'mlx');
  choose(byLabel(container, 'Duration') as unknown as HTMLSelectElement, 'monthly');
}

describe('PlansListPage', () => {
  it('given no plans, then it shows the No data card and Create plan', async () => {
    const container = await renderAt('/subscription-plans/all', { 'plans.mine': () => ({ data: { content: [] } }) });
    await waitFor(() => expect(container.querySelector('[data-testid="plans-no-data"]')?.textContent).toContain('No data'));
    expect(textOf(container)).toContain('You have no subscription plans yet.');
    expect(byRole(container, 'link', 'Create plan').getAttribute('href')).toBe('/subscription-plans/create');
  });

  it('given plans, then each links to its page with its price grouped in thousands', async () => {
    const container = await renderAt('/subscription-plans/all', {
      'plans.mine': () => ({ data: { content: [plan, planFixture({ id: 'plan_2', name: 'Bronze', price: 1000 })] } }),
    });
    await waitFor(() => expect(container.querySelectorAll('[data-testid="plan"]').length).toBe(2));
    expect(byRole(container, 'link', 'Gold membership').getAttribute('href')).toBe('/subscription-plans/plan_1');
    expect(byRole(container, 'link', 'Bronze').getAttribute('href')).toBe('/subscription-plans/plan_2');
    expect(textOf(container)).toContain('250,000 MLX');
    expect(textOf(container)).toContain('Monthly');
  });

  it('given more plans than a page, then Load more asks for the next cursor and appends, and goes at the end', async () => {
    const container = await renderAt('/subscription-plans/all', {
      'plans.mine': (input) =>
        (input as { cursor?: string }).cursor === 'c1_a'
          ? { data: { content: [planFixture({ id: 'plan_2', name: 'Bronze', price: 1000 })], next_cursor: null } }
          : { data: { content: [plan], next_cursor: 'c1_a' } },
    });
    await waitFor(() => expect(container.querySelectorAll('[data-testid="plan"]').length).toBe(1));
    // tRPC's infinite query names the direction of each page it asks for.
    expect(rendered?.calls.find((c) => c.path === 'plans.mine')?.input).toEqual({ limit: 100, direction: 'forward' });
    click(byRole(container, 'button', 'Load more'));
    await waitFor(() => expect(container.querySelectorAll('[data-testid="plan"]').length).toBe(2));
    expect(rendered?.calls.filter((c) => c.path === 'plans.mine').map((c) => c.input)).toEqual([
      { limit: 100, direction: 'forward' },
      { limit: 100, cursor: 'c1_a', direction: 'forward' },
    ]);
    expect(byRole(container, 'link', 'Bronze')).toBeTruthy();
    expect([...container.querySelectorAll('button')].some((b) => b.textContent === 'Load more')).toBe(false);
  });

  it('when the list cannot be read, then it says Data retrieval failed', async () => {
    const container = await renderAt('/subscription-plans/all', { 'plans.mine': () => 'network-failure' });
    await waitFor(() => expect(alertText(container)).toBe('Data retrieval failed'));
  });
});

describe('PlanPage', () => {
  it('given the owner, then it shows name, price and currency, description, duration, Edit, Delete and Subscribers, no Subscribe', async () => {
    const container = await renderAt('/subscription-plans/plan_1', { 'plans.get': () => planAnswer }, { userId: OWNER_ID });
    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Gold membership'));
    expect(container.querySelector('[data-testid="plan-price"]')?.textContent).toBe('250,000 MLX');
    expect(textOf(container)).toContain('Millix (MLX)');
    expect(textOf(container)).toContain('Every article, every month.');
    expect(textOf(container)).toContain('Monthly');
    expect(byRole(container, 'link', 'Edit').getAttribute('href')).toBe('/subscription-plans/plan_1/edit');
    expect(byRole(container, 'link', 'Subscribers').getAttribute('href')).toBe('/subscription-plans/plan_1/subscribers');
    expect(hasButton(container, 'Delete')).toBe(true);
    expect(hasButton(container, 'Subscribe')).toBe(false);
  });

  it('given another user, then it shows Subscribe and neither Edit nor Delete', async () => {
    const container = await renderAt('/subscription-plans/plan_1', { 'plans.get': () => planAnswer }, { userId: OTHER_ID });
    await waitFor(() => expect(hasButton(container, 'Subscribe')).toBe(true));
    expect(() => byRole(container, 'link', 'Edit')).toThrow();
    expect(hasButton(container, 'Delete')).toBe(false);
    expect(() => byRole(container, 'link', 'Subscribers')).toThrow();
  });

  it('given an unknown plan, then it shows the server message', async () => {
    const container = await renderAt('/subscription-plans/nope', {
      'plans.get': () => failure(404, 'errors:planNotFound', 'This subscription plan does not exist.'),
    });
    await waitFor(() => expect(alertText(container)).toBe('This subscription plan does not exist.'));
  });

  it('when the owner confirms Delete, then /delete deletes it and the list shows the message', async () => {
    const container = await renderAt('/subscription-plans/plan_1', {
      'plans.get': () => planAnswer,
      'plans.delete': () => ({ data: { message: 'Subscription plan deleted.' } }),
      'plans.mine': () => ({ data: { content: [] } }),
    });
    await waitFor(() => expect(hasButton(container, 'Delete')).toBe(true));
    click(button(container, 'Delete'));
    expect(openDialog()?.textContent).toContain('Delete this plan?');
    // Cancel keeps the plan: nothing is called.
    click(button(openDialog() as unknown as HTMLElement, 'Cancel'));
    expect(openDialog()).toBeNull();
    expect(callsTo('plans.delete')).toEqual([]);
    click(button(container, 'Delete'));
    click(button(openDialog() as unknown as HTMLElement, 'Delete plan'));
    await waitFor(() => expect(locationOf(container)).toBe('/subscription-plans/all'));
    await waitFor(() => expect(container.querySelector('[role="status"]')?.textContent).toBe('Subscription plan deleted.'));
    expect(callsTo('plans.delete').map((c) => c.input)).toEqual([{ id: 'plan_1' }]);
  });

  it('when the delete is refused, then it shows the message and a way back to the plan', async () => {
    const container = await renderAt('/subscription-plans/plan_1/delete', {
      'plans.delete': () => failure(403, 'errors:planNotOwner', "Only the plan's owner can do this."),
    });
    await waitFor(() => expect(alertText(container)).toBe("Only the plan's owner can do this."));
    expect(byRole(container, 'link', 'Back to the plan').getAttribute('href')).toBe('/subscription-plans/plan_1');
    expect(callsTo('plans.delete').length).toBe(1);
  });
});

describe('Plan form', () => {
  it('given an empty form, when submitted, then every field says it is required and nothing is sent', async () => {
    const container = await renderAt('/subscription-plans/create', {});
    await submit(container.querySelector('form') as HTMLFormElement);
    const errors = [...container.querySelectorAll('.field-error')].map((e) => e.textContent);
    expect(errors).toEqual([
      'Name is required.',
      'Description is required.',
      'Price is required.',
      'Currency is required.',
      'Duration is required.',
    ]);
    expect(rendered?.calls).toEqual([]);
  });

  it('given the duration list, then Monthly is selectable and Weekly and Yearly are unavailable; Millix is the only currency', async () => {
    const container = await renderAt('/subscription-plans/create', {});
    const duration = byLabel(container, 'Duration') as unknown as HTMLSelectElement;
    const options = [...duration.options].map((o) => [o.textContent, o.disabled]);
    expect(options).toEqual([
      ['Choose…', false],
      ['Weekly (unavailable)', true],
      ['Monthly', false],
      ['Yearly (unavailable)', true],
    ]);
    const currency = byLabel(container, 'Currency') as unknown as HTMLSelectElement;
    expect([...currency.options].map((o) => o.value)).toEqual(['', 'mlx']);
  });

  it("given a price with separators, then the input groups the digits, plans.create gets an integer, and the new plan's page opens with the message", async () => {
    const container = await renderAt('/subscription-plans/create', {
      'plans.create': () => ({ data: { message: 'Subscription plan created.', id: 'plan_9' } }),
      'plans.mine': () => ({ data: { content: [] } }),
      'plans.get': () => ({ data: { content: planFixture({ id: 'plan_9', name: 'Silver', price: 1500 }) } }),
    });
    await fillForm(container, { price: '1,500' });
    typeInto(byLabel(container, 'Price'), '1,500x');
    expect(byLabel(container, 'Price').value).toBe('1,500');
    await submit(container.querySelector('form') as HTMLFormElement);
    // The plan's own page, not the cleared form: a second click cannot create the plan twice.
    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Silver'));
    expect(locationOf(container)).toBe('/subscription-plans/plan_9');
    expect(container.querySelector('[role="status"]')?.textContent).toBe('Subscription plan created.');
    expect(container.querySelector('form')).toBeNull();
    expect(callsTo('plans.create').map((c) => c.input)).toEqual([
      { name: 'Silver', description: 'Some articles.', price: 1500, currency: 'mlx', duration: 'monthly' },
    ]);
  });

  it('when the server refuses a field, then its message shows beside the field and in the message area', async () => {
    const container = await renderAt('/subscription-plans/create', {
      'plans.create': () =>
        failure(400, 'errors:planPricePositive', 'Price must be at least 1 MLX.', { price: 'errors:planPricePositive' }),
    });
    await fillForm(container, { price: '0' });
    await submit(container.querySelector('form') as HTMLFormElement);
    // '0' passes nothing client-side either: the same schema refuses it before any call.
    expect(container.querySelector('#plan-price-error')?.textContent).toBe('Price must be at least 1 MLX.');
    expect(rendered?.calls).toEqual([]);
    typeInto(byLabel(container, 'Price'), '5');
    await submit(container.querySelector('form') as HTMLFormElement);
    await waitFor(() => expect(alertText(container)).toBe('Price must be at least 1 MLX.'));
    expect(container.querySelector('#plan-price-error')?.textContent).toBe('Price must be at least 1 MLX.');
    expect(byLabel(container, 'Price').getAttribute('aria-invalid')).toBe('true');
  });

  it('given the edit page, then Update is disabled until a change, enabled after it and disabled again after submit', async () => {
    const container = await renderAt('/subscription-plans/plan_1/edit', {
      'plans.get': () => planAnswer,
      'plans.update': () => ({ data: { message: 'Subscription plan updated.' } }),
      'plans.mine': () => ({ data: { content: [plan] } }),
    });
    await waitFor(() => expect(byLabel(container, 'Name').value).toBe('Gold membership'));
    expect(byLabel(container, 'Price').value).toBe('250,000');
    const update = () => button(container, 'Update');
    expect(update().disabled).toBe(true);
    typeInto(byLabel(container, 'Price'), '300,000');
    expect(update().disabled).toBe(false);
    await submit(container.querySelector('form') as HTMLFormElement);
    await waitFor(() => expect(container.querySelector('[role="status"]')?.textContent).toBe('Subscription plan updated.'));
    expect(update().disabled).toBe(true);
    expect(callsTo('plans.update').map((c) => c.input)).toEqual([
      {
        id: 'plan_1',
        name: 'Gold membership',
        description: 'Every article, every month.',
        price: 300000,
        currency: 'mlx',
        duration: 'monthly',
      },
    ]);
    typeInto(byLabel(container, 'Name'), 'Gold+');
    expect(update().disabled).toBe(false);
  });

  it("given another user's plan, then the edit page says only the owner can edit it and shows no form", async () => {
    const container = await renderAt('/subscription-plans/plan_1/edit', { 'plans.get': () => planAnswer }, { userId: OTHER_ID });
    await waitFor(() => expect(alertText(container)).toBe("Only the plan's owner can do this."));
    expect(container.querySelector('form')).toBeNull();
  });

  it('when the plan cannot be loaded for editing, then it says Data retrieval failed and shows no form', async () => {
    const container = await renderAt('/subscription-plans/plan_1/edit', {
      'plans.get': () => failure(500, 'errors:internal', 'Something went wrong.'),
    });
    await waitFor(() => expect(alertText(container)).toBe('Data retrieval failed'));
    expect(container.querySelector('form')).toBeNull();
  });
});

describe('Subscribe', () => {
  const quote = {
    plan_id: 'plan_1',
    price: 250000,
    currency: 'mlx',
    duration: 'monthly',
    charge_now: '2026-11-24T10:00:00.000Z',
    next_charge_at: '2026-12-24T10:00:00.000Z',
  };

  it('when Subscribe is pressed, then the quote is confirmed first and Confirm subscribes at the quoted price', async () => {
    const container = await renderAt(
      '/subscription-plans/plan_1',
      {
        'plans.get': () => planAnswer,
        'subscriptions.quote': () => ({ data: quote }),
        'subscriptions.create': () => ({ data: { message: 'Subscribed to Gold membership.', content: subscriptionFixture() } }),
      },
      { userId: OTHER_ID },
    );
    await waitFor(() => expect(hasButton(container, 'Subscribe')).toBe(true));
    click(button(container, 'Subscribe'));
    const dialog = await waitFor(() => {
      const open = openDialog();
      if (!open) throw new Error('no dialog yet');
      return open;
    });
    expect(dialog.textContent).toContain('Subscribe to Gold membership?');
    expect(dialog.textContent).toContain('250,000 MLX');
    expect(dialog.textContent).toContain('Monthly');
    expect(dialog.textContent).toContain('Charged now');
    expect(dialog.textContent).toContain(`Next charge on ${formatStyledDate(quote.next_charge_at, 'long')}`);
    expect(callsTo('subscriptions.create')).toEqual([]);
    click(byRole(dialog, 'button', 'Confirm'));
    await waitFor(() => expect(openDialog()?.textContent).toContain('Subscribed to Gold membership.'));
    expect(callsTo('subscriptions.create').map((c) => c.input)).toEqual([{ subscription_plan_id: 'plan_1', expected_price: 250000 }]);
    expect(byRole(openDialog() as unknown as HTMLElement, 'link', 'View the subscription').getAttribute('href')).toBe(
      '/subscriptions/sub_1',
    );
  });

  it('when Cancel is pressed in the confirmation, then nothing is subscribed', async () => {
    const container = await renderAt(
      '/subscription-plans/plan_1',
      { 'plans.get': () => planAnswer, 'subscriptions.quote': () => ({ data: quote }) },
      { userId: OTHER_ID },
    );
    await waitFor(() => expect(hasButton(container, 'Subscribe')).toBe(true));
    click(button(container, 'Subscribe'));
    await waitFor(() => expect(openDialog()).not.toBeNull());
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Cancel'));
    expect(openDialog()).toBeNull();
    expect(callsTo('subscriptions.create')).toEqual([]);
  });

  it('when the quote is refused (own plan), then the failure dialog shows the message', async () => {
    const container = await renderAt(
      '/user/alice',
      {
        'plans.userProfile': () => ({
          data: { content: { id: 'user-alice', username: 'alice', first_name: 'Alice', last_name: 'Liddell' } },
        }),
        'plans.ofUser': () => ({ data: { content: [planFixture({ provider_id: 'user-alice' })] } }),
        'subscriptions.quote': () => failure(409, 'errors:subscribeOwnPlan', 'You cannot subscribe to your own plan.'),
      },
      { userId: OTHER_ID },
    );
    await waitFor(() => expect(hasButton(container, 'Subscribe')).toBe(true));
    expect(container.querySelector('h1')?.textContent).toBe('Alice Liddell’s subscription plans');
    click(button(container, 'Subscribe'));
    await waitFor(() => expect(openDialog()?.textContent).toContain('You cannot subscribe to your own plan.'));
    expect(openDialog()?.textContent).toContain('Subscription failed');
  });

  it('when the charge is refused for want of MLX, then the message names both amounts grouped in thousands', async () => {
    const container = await renderAt(
      '/subscription-plans/plan_1',
      {
        'plans.get': () => planAnswer,
        'subscriptions.quote': () => ({ data: quote }),
        'subscriptions.create': () => ({
          error: {
            status: 409,
            code: 'CONFLICT',
            messageKey: 'errors:subscriptionInsufficientFunds',
            message: 'Not enough MLX',
            params: { requiredMlx: '250000', availableMlx: '1000' },
          },
        }),
      },
      { userId: OTHER_ID },
    );
    await waitFor(() => expect(hasButton(container, 'Subscribe')).toBe(true));
    click(button(container, 'Subscribe'));
    await waitFor(() => expect(openDialog()).not.toBeNull());
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Confirm'));
    await waitFor(() =>
      expect(openDialog()?.textContent).toContain('Not enough MLX: this subscription costs 250,000 MLX and 1,000 MLX is available.'),
    );
  });
});

describe('UserPlansPage and SubscribersPage', () => {
  it('given a plan the viewer already subscribes to, then it shows Subscribed with a link to the subscription instead of Subscribe', async () => {
    const container = await renderAt(
      '/user/alice',
      {
        'plans.userProfile': () => ({ data: { content: { id: 'user-alice', username: 'alice', first_name: '', last_name: '' } } }),
        'plans.ofUser': () => ({
          data: {
            content: [
              planFixture({ id: 'plan_1', provider_id: 'user-alice' }),
              planFixture({ id: 'plan_2', name: 'Silver', provider_id: 'user-alice' }),
            ],
          },
        }),
        'subscriptions.mine': () => ({
          data: {
            content: [
              subscriptionFixture({ id: 'sub_9', plan_id: 'plan_1', provider_id: 'user-alice', status: 'cancelled' }),
              subscriptionFixture({ id: 'sub_8', plan_id: 'plan_2', provider_id: 'user-alice', status: 'ended' }),
            ],
          },
        }),
      },
      { userId: OTHER_ID },
    );
    await waitFor(() => expect(container.querySelectorAll('[data-testid="plan"]').length).toBe(2));
    const [subscribed, other] = [...container.querySelectorAll('[data-testid="plan"]')] as HTMLElement[];
    expect(subscribed?.querySelector('[data-testid="plan-subscribed"]')?.textContent).toContain('Subscribed');
    expect(subscribed?.querySelector('a[href="/subscriptions/sub_9"]')?.textContent).toBe('View your subscription');
    expect(subscribed?.querySelector('button')).toBeNull();
    // An ended subscription does not count: Subscribe is offered again.
    expect(other?.querySelector('[data-testid="plan-subscribed"]')).toBeNull();
    expect(hasButton(other as HTMLElement, 'Subscribe')).toBe(true);
  });

  it('given a user without plans, then the profile shows the No data card', async () => {
    const container = await renderAt('/user/bob', {
      'plans.userProfile': () => ({ data: { content: { id: 'user-bob', username: 'bob', first_name: '', last_name: '' } } }),
      'plans.ofUser': () => ({ data: { content: [] } }),
    });
    await waitFor(() => expect(container.querySelector('[data-testid="user-plans-no-data"]')?.textContent).toContain('No data'));
    expect(callsTo('plans.ofUser').map((c) => c.input)).toEqual([{ user_id: 'user-bob' }]);
  });

  it('given subscribers, then each shows id and name, and the provider can cancel an active one', async () => {
    const container = await renderAt('/subscription-plans/plan_1/subscribers', {
      'plans.get': () => planAnswer,
      'plans.subscribers': () => ({
        data: {
          content: [
            { id: 'user-sub-1', name: 'Ada Lovelace', username: 'ada', subscription_id: 'sub_1', status: 'active' },
            { id: 'user-sub-2', name: 'Bo Peep', username: 'bo', subscription_id: 'sub_2', status: 'ended' },
          ],
        },
      }),
      'subscriptions.cancel': () => ({
        data: { message: 'Subscription cancelled.', content: subscriptionFixture({ status: 'cancelled' }) },
      }),
    });
    await waitFor(() => expect(container.querySelectorAll('[data-testid="subscriber"]').length).toBe(2));
    expect(textOf(container)).toContain('user-sub-1');
    expect(textOf(container)).toContain('Ada Lovelace');
    expect(textOf(container)).toContain('Ended');
    expect(container.querySelectorAll('.subscriptions-cancel').length).toBe(1);
    click(button(container, 'Cancel subscription'));
    expect(openDialog()?.textContent).toContain('takes effect at the end of the paid period');
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Cancel subscription'));
    await waitFor(() => expect(textOf(container)).toContain('Subscription cancelled.'));
    expect(callsTo('subscriptions.cancel').map((c) => c.input)).toEqual([{ id: 'sub_1' }]);
  });

  it('given a subscriber on a later page, when it is cancelled, then every loaded page is read again and its row shows the new status', async () => {
    let cancelled = false;
    const subscriber = (n: number, status: string) => ({
      id: `user-sub-${n}`,
      name: `Subscriber ${n}`,
      username: `sub${n}`,
      subscription_id: `sub_${n}`,
      status,
    });
    const container = await renderAt('/subscription-plans/plan_1/subscribers', {
      'plans.get': () => planAnswer,
      'plans.subscribers': (input) =>
        (input as { cursor?: string }).cursor === 'c1_a'
          ? { data: { content: [subscriber(2, cancelled ? 'cancelled' : 'active')], next_cursor: null } }
          : { data: { content: [subscriber(1, 'ended')], next_cursor: 'c1_a' } },
      'subscriptions.cancel': () => {
        cancelled = true;
        return { data: { message: 'Subscription cancelled.', content: subscriptionFixture({ status: 'cancelled' }) } };
      },
    });
    await waitFor(() => expect(container.querySelectorAll('[data-testid="subscriber"]').length).toBe(1));
    click(button(container, 'Load more'));
    await waitFor(() => expect(container.querySelectorAll('[data-testid="subscriber"]').length).toBe(2));
    click(button(container, 'Cancel subscription'));
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Cancel subscription'));
    await waitFor(() =>
      expect([...container.querySelectorAll('[data-testid="subscriber"] .subscriptions-status')].map((s) => s.textContent)).toEqual([
        'Ended',
        'Cancelled',
      ]),
    );
    expect(callsTo('plans.subscribers').map((c) => (c.input as { cursor?: string }).cursor)).toEqual([
      undefined,
      'c1_a',
      undefined,
      'c1_a',
    ]);
  });

  it('given no subscribers, then it shows the No data card', async () => {
    const container = await renderAt('/subscription-plans/plan_1/subscribers', {
      'plans.get': () => planAnswer,
      'plans.subscribers': () => ({ data: { content: [] } }),
    });
    await waitFor(() => expect(container.querySelector('[data-testid="subscribers-no-data"]')?.textContent).toContain('No data'));
  });
});

describe('Spanish', () => {
  it('given Spanish, then the plan page and the form speak Spanish', async () => {
    const container = await renderAt('/subscription-plans/plan_1', { 'plans.get': () => planAnswer }, { language: 'es' });
    await waitFor(() => expect(byRole(container, 'link', 'Editar')).toBeTruthy());
    expect(textOf(container)).toContain('Mensual');
    expect(container.querySelector('[data-testid="plan-price"]')?.textContent).toBe('250.000 MLX');
    expect(hasButton(container, 'Eliminar')).toBe(true);
    rendered?.unmount();
    const form = await renderAt('/subscription-plans/create', {}, { language: 'es' });
    await submit(form.querySelector('form') as HTMLFormElement);
    expect(form.querySelector('#plan-name-error')?.textContent).toBe('El nombre es obligatorio.');
    const duration = byLabel(form, 'Duración') as unknown as HTMLSelectElement;
    expect([...duration.options].map((o) => o.textContent)).toContain('Semanal (no disponible)');
  });
});
