// Proves the subscription screens (issue 13): the list's 'No data' card, statuses (Active, Past
// due, 'Cancelled — ends on {date}', Ended) with the next charge, the subscription page's link to
// its plan and its charges, Cancel behind a confirmation that says it takes effect at the end of
// the paid period (and its refusal), a higher price awaiting acceptance with Accept behind a
// confirmation that sends the price shown (and a stale offer's refusal), 'Data retrieval failed',
// and Spanish.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byRole, click, textOf, waitFor } from '../../../test/dom.js';
import type { Rendered } from '../../../test/renderForTest.js';
import { OTHER_ID, OWNER_ID, failure, openDialog, renderPlans, subscriptionFixture } from '../../../test/plansTestKit.js';
import { type FakeCall, type FakeProcedures, installDialogStandIn } from '../../../test/walletTestKit.js';
import { formatStyledDate } from '../../ui/displayFormat.js';

beforeAll(installDialogStandIn);

let rendered: (Rendered & { calls: FakeCall[] }) | undefined;
afterEach(() => rendered?.unmount());

async function renderAt(path: string, procedures: FakeProcedures, language: 'en' | 'es' = 'en', userId = OWNER_ID) {
  rendered = await renderPlans(procedures, { path, language, userId });
  return rendered.container;
}

const long = (iso: string) => formatStyledDate(iso, 'long');
const statuses = (container: HTMLElement) =>
  [...container.querySelectorAll('[data-testid="subscription-status"]')].map((s) => s.textContent);
const callsTo = (path: string) => rendered?.calls.filter((c) => c.path === path) ?? [];

describe('SubscriptionsPage', () => {
  it('given no subscriptions, then it shows the No data card', async () => {
    const container = await renderAt('/subscriptions/all', { 'subscriptions.mine': () => ({ data: { content: [] } }) });
    await waitFor(() => expect(container.querySelector('[data-testid="subscriptions-no-data"]')?.textContent).toContain('No data'));
    expect(textOf(container)).toContain('You have no subscriptions yet.');
  });

  it('given subscriptions, then each links to its page with its status, price and next charge', async () => {
    const endsAt = '2026-12-20T10:00:00.000Z';
    const container = await renderAt('/subscriptions/all', {
      'subscriptions.mine': () => ({
        data: {
          content: [
            subscriptionFixture(),
            subscriptionFixture({ id: 'sub_2', status: 'past_due' }),
            subscriptionFixture({ id: 'sub_3', status: 'cancelled', ends_at: endsAt, next_charge_at: null }),
            subscriptionFixture({ id: 'sub_4', status: 'ended', next_charge_at: null }),
          ],
        },
      }),
    });
    await waitFor(() => expect(container.querySelectorAll('[data-testid="subscription"]').length).toBe(4));
    expect(statuses(container)).toEqual(['Active', 'Past due', `Cancelled — ends on ${long(endsAt)}`, 'Ended']);
    expect(container.querySelector('a[href="/subscriptions/sub_2"]')?.textContent).toBe('Gold membership');
    expect(textOf(container)).toContain('250,000 MLX / month');
    expect(textOf(container)).toContain(long('2026-12-20T10:00:00.000Z'));
  });

  it('given a higher price pending, then the list says it awaits acceptance', async () => {
    const container = await renderAt('/subscriptions/all', {
      'subscriptions.mine': () => ({ data: { content: [subscriptionFixture({ agreed_price: '250000', pending_price: '300000' })] } }),
    });
    await waitFor(() =>
      expect(container.querySelector('[data-testid="subscription-pending-price"]')?.textContent).toBe(
        'New price: 300,000 MLX, awaiting your acceptance',
      ),
    );
  });

  it('when the list cannot be read, then it says Data retrieval failed', async () => {
    const container = await renderAt('/subscriptions/all', { 'subscriptions.mine': () => 'network-failure' });
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe('Data retrieval failed'));
  });
});

describe('SubscriptionPage', () => {
  it('given a subscription, then it links to its plan and lists every charge', async () => {
    const second = {
      period: 2,
      amount: '250000',
      charged_at: '2026-12-20T10:00:00.000Z',
      paid_through: '2027-01-20T10:00:00.000Z',
      transaction_id: 'subscription-sub_1-2',
    };
    const subscription = subscriptionFixture();
    const container = await renderAt('/subscriptions/sub_1', {
      'subscriptions.get': () => ({ data: { content: { ...subscription, charges: [...subscription.charges, second] } } }),
    });
    await waitFor(() => expect(container.querySelectorAll('[data-testid="charge"]').length).toBe(2));
    expect(byRole(container, 'link', 'Gold membership').getAttribute('href')).toBe('/subscription-plans/plan_1');
    expect(container.querySelector('[data-testid="subscription-next-charge"]')?.textContent).toBe(long('2026-12-20T10:00:00.000Z'));
    expect(textOf(container)).toContain('subscription-sub_1-2');
    expect(statuses(container)).toEqual(['Active']);
  });

  it('when Cancel is confirmed, then it says when it takes effect, cancels and shows the message', async () => {
    const cancelled = subscriptionFixture({ status: 'cancelled', ends_at: '2026-12-20T10:00:00.000Z', next_charge_at: null });
    const container = await renderAt('/subscriptions/sub_1', {
      'subscriptions.get': (_input, call) => ({ data: { content: call === 0 ? subscriptionFixture() : cancelled } }),
      'subscriptions.cancel': () => ({ data: { message: 'Subscription cancelled.', content: cancelled } }),
    });
    await waitFor(() => expect(byRole(container, 'button', 'Cancel subscription')).toBeTruthy());
    click(byRole(container, 'button', 'Cancel subscription'));
    expect(openDialog()?.textContent).toContain(
      `The cancellation takes effect at the end of the paid period: ${long('2026-12-20T10:00:00.000Z')}.`,
    );
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Keep it'));
    expect(callsTo('subscriptions.cancel')).toEqual([]);
    click(byRole(container, 'button', 'Cancel subscription'));
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Cancel subscription'));
    await waitFor(() => expect(statuses(container)).toEqual([`Cancelled — ends on ${long('2026-12-20T10:00:00.000Z')}`]));
    expect(callsTo('subscriptions.cancel').map((c) => c.input)).toEqual([{ id: 'sub_1' }]);
    expect(() => byRole(container, 'button', 'Cancel subscription')).toThrow();
  });

  it('when Cancel is refused, then the server message shows and the button stays', async () => {
    const container = await renderAt('/subscriptions/sub_1', {
      'subscriptions.get': () => ({ data: { content: subscriptionFixture() } }),
      'subscriptions.cancel': () => failure(409, 'errors:subscriptionAlreadyCancelled', 'This subscription is already cancelled.'),
    });
    await waitFor(() => expect(byRole(container, 'button', 'Cancel subscription')).toBeTruthy());
    click(byRole(container, 'button', 'Cancel subscription'));
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Cancel subscription'));
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe('This subscription is already cancelled.'));
    expect(byRole(container, 'button', 'Cancel subscription')).toBeTruthy();
  });

  it('given a higher price pending, when Accept is confirmed, then it sends exactly that price and the offer goes', async () => {
    const offered = subscriptionFixture({ agreed_price: '1000', pending_price: '3000', price: '1000' });
    const accepted = subscriptionFixture({ agreed_price: '3000', pending_price: null, price: '1000' });
    const container = await renderAt(
      '/subscriptions/sub_1',
      {
        'subscriptions.get': (_input, call) => ({ data: { content: call === 0 ? offered : accepted } }),
        'subscriptions.acceptPrice': () => ({ data: { message: 'New price accepted.', content: accepted } }),
      },
      'en',
      OTHER_ID,
    );
    await waitFor(() => expect(container.querySelector('[data-testid="subscription-price-offer"]')).toBeTruthy());
    expect(textOf(container)).toContain('The provider raised the price of this plan to 3,000 MLX a month.');
    expect(textOf(container)).toContain('You pay 1,000 MLX a month until you accept the new price.');
    click(byRole(container, 'button', 'Accept 3,000 MLX a month'));
    expect(openDialog()?.textContent).toContain(
      `From your charge on ${long('2026-12-20T10:00:00.000Z')} you pay 3,000 MLX a month instead of 1,000 MLX.`,
    );
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Not now'));
    expect(callsTo('subscriptions.acceptPrice')).toEqual([]);
    click(byRole(container, 'button', 'Accept 3,000 MLX a month'));
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Accept 3,000 MLX'));
    await waitFor(() => expect(container.querySelector('[role="status"]')?.textContent).toBe('New price accepted.'));
    await waitFor(() => expect(container.querySelector('[data-testid="subscription-price-offer"]')).toBeNull());
    expect(callsTo('subscriptions.acceptPrice').map((c) => c.input)).toEqual([{ id: 'sub_1', price: '3000' }]);
  });

  it('given a stale offer, when Accept is refused, then the server message shows and the new offer loads', async () => {
    const offered = subscriptionFixture({ agreed_price: '1000', pending_price: '3000' });
    const raisedAgain = subscriptionFixture({ agreed_price: '1000', pending_price: '4000' });
    const container = await renderAt(
      '/subscriptions/sub_1',
      {
        'subscriptions.get': (_input, call) => ({ data: { content: call === 0 ? offered : raisedAgain } }),
        'subscriptions.acceptPrice': () => {
          const refusal = failure(
            409,
            'errors:subscriptionPriceOfferChanged',
            'The new price is now 4000 MLX. Please review it and accept again.',
          );
          return 'error' in refusal ? { error: { ...refusal.error, params: { price: '4000' } } } : refusal;
        },
      },
      'en',
      OTHER_ID,
    );
    await waitFor(() => expect(byRole(container, 'button', 'Accept 3,000 MLX a month')).toBeTruthy());
    click(byRole(container, 'button', 'Accept 3,000 MLX a month'));
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Accept 3,000 MLX'));
    await waitFor(() =>
      expect(container.querySelector('[role="alert"]')?.textContent).toBe(
        'The new price is now 4000 MLX. Please review it and accept again.',
      ),
    );
    await waitFor(() => expect(byRole(container, 'button', 'Accept 4,000 MLX a month')).toBeTruthy());
  });

  it('given a higher price pending, the owner sees it unaccepted (no Accept) and ends the subscription at period end after confirming', async () => {
    const offered = subscriptionFixture({ agreed_price: '1000', pending_price: '3000' });
    const ending = subscriptionFixture({
      agreed_price: '1000',
      pending_price: null,
      status: 'cancelled',
      ends_at: '2026-12-20T10:00:00.000Z',
      next_charge_at: null,
    });
    const container = await renderAt('/subscriptions/sub_1', {
      'subscriptions.get': (_input, call) => ({ data: { content: call === 0 ? offered : ending } }),
      'subscriptions.endForPrice': () => ({ data: { message: 'The subscriber keeps the subscription until then.', content: ending } }),
    });
    await waitFor(() => expect(container.querySelector('[data-testid="subscription-price-unaccepted"]')).toBeTruthy());
    expect(container.querySelector('[data-testid="subscription-price-offer"]')).toBeNull();
    expect(textOf(container)).toContain(
      'The subscriber has not accepted your new price of 3,000 MLX a month, so renewals stay at 1,000 MLX.',
    );
    click(byRole(container, 'button', 'End at the end of the paid period'));
    expect(openDialog()?.textContent).toContain(`The subscriber keeps what they paid for until ${long('2026-12-20T10:00:00.000Z')}`);
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'End subscription'));
    await waitFor(() => expect(statuses(container)).toEqual([`Cancelled — ends on ${long('2026-12-20T10:00:00.000Z')}`]));
    expect(callsTo('subscriptions.endForPrice').map((c) => c.input)).toEqual([{ id: 'sub_1' }]);
  });

  it('given an unknown subscription, then it shows the server message', async () => {
    const container = await renderAt('/subscriptions/nope', {
      'subscriptions.get': () => failure(404, 'errors:subscriptionNotFound', 'This subscription does not exist.'),
    });
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe('This subscription does not exist.'));
  });

  it('given Spanish, then the statuses and labels are Spanish', async () => {
    const container = await renderAt(
      '/subscriptions/all',
      { 'subscriptions.mine': () => ({ data: { content: [subscriptionFixture({ status: 'past_due' })] } }) },
      'es',
    );
    await waitFor(() => expect(statuses(container)).toEqual(['Pago pendiente']));
    expect(textOf(container)).toContain('250.000 MLX / mes');
    expect(container.querySelector('h1')?.textContent).toBe('Suscripciones');
  });
});

describe('SubscriptionPage: merchant and Resume (issue 25)', () => {
  const endsAt = '2099-01-20T10:00:00.000Z';
  const cancelledBySubscriber = subscriptionFixture({
    status: 'cancelled',
    cancelled_by: 'subscriber',
    ends_at: endsAt,
    next_charge_at: null,
    provider_username: 'bob_shop',
  });

  it('names the merchant, linked to their public profile, beside the plan', async () => {
    const container = await renderAt(
      '/subscriptions/sub_1',
      { 'subscriptions.get': () => ({ data: { content: subscriptionFixture({ provider_username: 'bob_shop' }) } }) },
      'en',
      OTHER_ID,
    );
    await waitFor(() => expect(container.querySelector('[data-testid="subscription-merchant"]')?.textContent).toBe('bob_shop'));
    expect(byRole(container, 'link', 'bob_shop').getAttribute('href')).toBe('/user/bob_shop');
    expect(container.querySelector('[data-testid="subscription-resume"]')).toBeNull();
  });

  it('given the subscriber cancelled and the period runs, when Resume is confirmed, then it resumes and shows the message', async () => {
    const resumed = subscriptionFixture({ provider_username: 'bob_shop' });
    const container = await renderAt(
      '/subscriptions/sub_1',
      {
        'subscriptions.get': (_input, call) => ({ data: { content: call === 0 ? cancelledBySubscriber : resumed } }),
        'subscriptions.resume': () => ({ data: { message: 'Subscription resumed. It renews soon.', content: resumed } }),
      },
      'en',
      OTHER_ID,
    );
    await waitFor(() => expect(byRole(container, 'button', 'Resume subscription')).toBeTruthy());
    expect(textOf(container)).toContain(`It stays active until ${long(endsAt)}`);
    click(byRole(container, 'button', 'Resume subscription'));
    expect(openDialog()?.textContent).toContain('the price you agreed to');
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Not now'));
    expect(callsTo('subscriptions.resume')).toEqual([]);
    click(byRole(container, 'button', 'Resume subscription'));
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Resume'));
    await waitFor(() => expect(statuses(container)).toEqual(['Active']));
    expect(callsTo('subscriptions.resume').map((c) => c.input)).toEqual([{ id: 'sub_1' }]);
    expect(textOf(container)).toContain('Subscription resumed. It renews soon.');
    expect(() => byRole(container, 'button', 'Resume subscription')).toThrow();
  });

  it("offers no Resume for the provider's cancellation, to the provider, or once the period has ended", async () => {
    for (const [content, userId] of [
      [{ ...cancelledBySubscriber, cancelled_by: 'provider' }, OTHER_ID],
      [cancelledBySubscriber, OWNER_ID],
      [{ ...cancelledBySubscriber, ends_at: '2020-01-01T00:00:00.000Z' }, OTHER_ID],
    ] as const) {
      const container = await renderAt('/subscriptions/sub_1', { 'subscriptions.get': () => ({ data: { content } }) }, 'en', userId);
      await waitFor(() => expect(statuses(container).length).toBe(1));
      expect(container.querySelector('[data-testid="subscription-resume"]')).toBeNull();
      rendered?.unmount();
      rendered = undefined;
    }
  });

  it('when Resume is refused, then the server message shows', async () => {
    const container = await renderAt(
      '/subscriptions/sub_1',
      {
        'subscriptions.get': () => ({ data: { content: cancelledBySubscriber } }),
        'subscriptions.resume': () =>
          failure(409, 'errors:subscriptionResumeTooLate', 'This subscription has ended and can no longer be resumed.'),
      },
      'es',
      OTHER_ID,
    );
    await waitFor(() => expect(byRole(container, 'button', 'Reanudar suscripción')).toBeTruthy());
    click(byRole(container, 'button', 'Reanudar suscripción'));
    click(byRole(openDialog() as unknown as HTMLElement, 'button', 'Reanudar'));
    await waitFor(() =>
      expect(container.querySelector('[role="alert"]')?.textContent).toBe(
        'Esta suscripción ha terminado y ya no se puede reanudar. Suscríbase de nuevo desde la página del plan.',
      ),
    );
  });
});
