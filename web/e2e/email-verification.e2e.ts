// Proves e-mail verification in a real browser against a real Quern (ADR 046): a new user sees the notice on the dashboard and can have the link sent again; until the link is opened, a send by e-mail to the user is refused with the message that says to use the username or the address; the link from the outbox confirms the address, the notice goes, and the same send by e-mail then pays (screenshots at 1280 and 390 px in test-results/screenshots/verify-*.png).
import { expect, test, type Browser } from '@playwright/test';
import { faucet, loginByApi, registerByApi, type TestUser, trpcQuery, uniqueUser, verificationLinkMailedTo } from './users.js';

const REFUSAL =
  "This e-mail address has not been verified by its owner yet, so it cannot be paid. Send to the recipient's username or millix address instead.";

async function signedInPage(browser: Browser, width: number): Promise<{ user: TestUser; page: import('@playwright/test').Page }> {
  const user = uniqueUser();
  const context = await browser.newContext({
    baseURL: process.env.QUERN_E2E_BASE_URL,
    viewport: { width, height: 900 },
    reducedMotion: 'reduce',
  });
  await registerByApi(context.request, user);
  await loginByApi(context.request, user);
  return { user, page: await context.newPage() };
}

for (const width of [1280, 390]) {
  test(`at ${width} px: the notice, the refused send by e-mail, the link from the outbox, then the send pays`, async ({ browser }) => {
    test.setTimeout(120_000);
    const { user: payer, page: payerPage } = await signedInPage(browser, width);
    const { user: owner, page: ownerPage } = await signedInPage(browser, width);
    await faucet(payer.userName, 50_000);
    await expect
      .poll(() => trpcQuery<{ stable: string }>(payerPage.request, 'wallet.balance').then((b) => b.stable), { timeout: 30_000 })
      .toBe('50000');

    // The owner's dashboard asks for the proof and can send the link again.
    await ownerPage.goto('/account');
    const notice = ownerPage.getByRole('region', { name: 'Confirm your e-mail address' });
    await expect(notice).toContainText(owner.email);
    await notice.getByRole('button', { name: 'Send the link again' }).click();
    await expect(notice.getByRole('status')).toHaveText('Sent. Check your inbox for the new link.');
    await ownerPage.screenshot({ path: `test-results/screenshots/verify-notice-${width}.png` });

    // Before the proof, paying the address is refused with the message, and nothing moves.
    await payerPage.goto('/millix/send');
    await payerPage.getByLabel('To', { exact: true }).fill(owner.email);
    await payerPage.getByLabel('Amount', { exact: true }).pressSequentially('2000');
    await payerPage.getByRole('button', { name: 'Send', exact: true }).click();
    const failed = payerPage.getByRole('alertdialog', { name: 'Transaction failed' });
    await expect(failed).toContainText(REFUSAL, { timeout: 15_000 });
    await payerPage.screenshot({ path: `test-results/screenshots/verify-refused-${width}.png` });
    expect((await trpcQuery<{ stable: string }>(ownerPage.request, 'wallet.balance')).stable).toBe('0');

    // The link from the mail confirms the address; the notice is gone.
    await ownerPage.goto(await verificationLinkMailedTo(owner.email));
    await expect(ownerPage.getByRole('heading', { level: 1 })).toHaveText('Confirm your e-mail address');
    await expect(ownerPage.getByRole('status')).toHaveText(
      'Your e-mail address is confirmed. From now on you can be paid by e-mail address, and we will send you your receipts and notices there.',
    );
    await ownerPage.screenshot({ path: `test-results/screenshots/verify-page-${width}.png` });
    await ownerPage.getByRole('link', { name: 'Open your wallet' }).click();
    await expect(ownerPage.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(ownerPage.getByRole('region', { name: 'Confirm your e-mail address' })).toHaveCount(0);

    // The same send by e-mail now pays.
    await payerPage.goto('/millix/send');
    await payerPage.getByLabel('To', { exact: true }).fill(owner.email);
    await payerPage.getByLabel('Amount', { exact: true }).pressSequentially('2000');
    await payerPage.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(payerPage.getByRole('alertdialog', { name: 'Transaction successful' })).toBeVisible({ timeout: 15_000 });
    await expect
      .poll(
        () =>
          trpcQuery<{ stable: string; unstable: string }>(ownerPage.request, 'wallet.balance').then(
            (b) => BigInt(b.stable) + BigInt(b.unstable),
          ),
        {
          timeout: 30_000,
        },
      )
      .toBe(2000n);
  });
}
