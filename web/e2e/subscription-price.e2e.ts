// Proves price consent in a real browser against a real Quern (ADR 044): after the plan's owner
// raises its price, the subscriber's list marks the new price as awaiting acceptance; the
// subscription page shows it beside the agreed price, Accept asks for confirmation ('Not now'
// changes nothing), and confirming accepts exactly the price shown, after which the offer is gone
// and the server records the new agreed price; the plan's owner, from the subscriber list, opens
// a subscription whose subscriber has not accepted and ends it at the end of its paid period.
// Screenshots: test-results/screenshots/subscription-price-*.png.
import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { apiUser, faucet, loginByApi, trpcMutation, trpcQuery } from './users.js';

const seriousViolations = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);

interface Subscription {
  id: string;
  agreed_price: string;
  pending_price: string | null;
}

/**
 * A funded subscriber on a monthly MLX plan of 1,000 MLX whose owner has since raised it to
 * 3,000 MLX: the subscription's price is pending the subscriber's acceptance.
 */
async function subscribedThenRaised(name: string, description: string) {
  const owner = await apiUser();
  const subscriber = await apiUser();
  const { address } = await trpcQuery<{ address: string }>(subscriber.api, 'wallet.address');
  await faucet(address, 100_000);
  await expect
    .poll(async () => (await trpcQuery<{ stable: string }>(subscriber.api, 'wallet.balance')).stable, { timeout: 60_000 })
    .toBe('100000');
  const terms = { name, description, currency: 'mlx', duration: 'monthly' };
  const { id: planId } = await trpcMutation<{ id: string }>(owner.api, 'plans.create', { ...terms, price: 1000 });
  const { content } = await trpcMutation<{ content: Subscription }>(subscriber.api, 'subscriptions.create', {
    subscription_plan_id: planId,
    expected_price: 1000,
  });
  await trpcMutation(owner.api, 'plans.update', { id: planId, ...terms, price: 3000 });
  return { owner, subscriber, planId, content };
}

test('a subscriber sees the raised price awaiting acceptance and accepts it on the subscription page', async ({ browser }) => {
  test.setTimeout(180_000);
  const { subscriber, content } = await subscribedThenRaised('Gold consent', 'Monthly gold tier');

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await loginByApi(page.request, subscriber.user);
  await page.goto('/subscriptions/all');
  await expect(page.getByTestId('subscription-pending-price')).toHaveText('New price: 3,000 MLX, awaiting your acceptance');
  await page.getByRole('link', { name: 'Gold consent' }).click();
  await expect(page).toHaveURL(new RegExp(`/subscriptions/${content.id}$`));

  const offer = page.getByTestId('subscription-price-offer');
  await expect(offer).toContainText('The provider raised the price of this plan to 3,000 MLX a month.');
  await expect(offer).toContainText('You pay 1,000 MLX a month until you accept the new price.');
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/screenshots/subscription-price-offer.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/screenshots/subscription-price-offer-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // 'Not now' accepts nothing.
  await offer.getByRole('button', { name: 'Accept 3,000 MLX a month' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Accept the new price?' });
  await expect(dialog).toContainText('you pay 3,000 MLX a month instead of 1,000 MLX.');
  await page.screenshot({ path: 'test-results/screenshots/subscription-price-confirm.png' });
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await expect(dialog).toBeHidden();
  expect((await trpcQuery<{ content: Subscription }>(subscriber.api, 'subscriptions.get', { id: content.id })).content).toMatchObject({
    agreed_price: '1000',
    pending_price: '3000',
  });

  await offer.getByRole('button', { name: 'Accept 3,000 MLX a month' }).click();
  await dialog.getByRole('button', { name: 'Accept 3,000 MLX' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'New price accepted.' })).toContainText(
    'the subscription costs 3,000 MLX a month.',
  );
  await expect(offer).toBeHidden();
  await page.screenshot({ path: 'test-results/screenshots/subscription-price-accepted.png', fullPage: true });
  expect((await trpcQuery<{ content: Subscription }>(subscriber.api, 'subscriptions.get', { id: content.id })).content).toMatchObject({
    agreed_price: '3000',
    pending_price: null,
  });
  await context.close();
});

test('the plan owner ends an unaccepted subscription at the end of its paid period from the subscriber list', async ({ browser }) => {
  test.setTimeout(180_000);
  const { owner, subscriber, planId, content } = await subscribedThenRaised('Silver consent', 'Monthly silver tier');

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await loginByApi(page.request, owner.user);
  await page.goto(`/subscription-plans/${planId}/subscribers`);
  await page.getByRole('link', { name: 'Open subscription' }).click();
  await expect(page).toHaveURL(new RegExp(`/subscriptions/${content.id}$`));
  const unaccepted = page.getByTestId('subscription-price-unaccepted');
  await expect(unaccepted).toContainText(
    'The subscriber has not accepted your new price of 3,000 MLX a month, so renewals stay at 1,000 MLX.',
  );
  await expect(page.getByTestId('subscription-price-offer')).toHaveCount(0);
  await unaccepted.getByRole('button', { name: 'End at the end of the paid period' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'End this subscription?' });
  await dialog.getByRole('button', { name: 'End subscription' }).click();
  await expect(page.getByTestId('subscription-status')).toContainText('Cancelled — ends on');
  await expect(page.getByRole('status').filter({ hasText: 'The subscriber keeps the subscription until' })).toContainText(
    'then it ends without a charge.',
  );
  await page.screenshot({ path: 'test-results/screenshots/subscription-price-owner-ended.png', fullPage: true });
  const ended = (
    await trpcQuery<{ content: Subscription & { status: string; cancelled_by: string } }>(subscriber.api, 'subscriptions.get', {
      id: content.id,
    })
  ).content;
  expect(ended).toMatchObject({ status: 'cancelled', cancelled_by: 'priceNotAccepted', pending_price: null });
  await context.close();
});
