// Proves the support form in a real browser against a real Quern: without solving the captcha it names the widget ('Verify ALTCHA…'); the real ALTCHA widget then fetches a challenge, solves it in its worker under the page's CSP, and Send shows the Success sheet; the message is found in the outbox, addressed to the support mailbox with the user's address as Reply-To, and the user's acknowledgement beside it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loginByApi, registerByApi, uniqueUser, verifyEmailByLink } from './users.js';

const outbox = (): string[] => {
  const dataDir = process.env.QUERN_E2E_DATA_DIR;
  if (!dataDir) throw new Error('QUERN_E2E_DATA_DIR is not set: run through playwright (web/e2e/global-setup.ts)');
  try {
    const dir = join(dataDir, 'outbox');
    return readdirSync(dir)
      .filter((file) => file.endsWith('.eml'))
      .map((file) => readFileSync(join(dir, file), 'utf8'));
  } catch {
    return [];
  }
};

test('the support form solved with the real ALTCHA widget reaches the support mailbox', async ({ page }) => {
  const cspErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
  });
  const user = uniqueUser();
  await registerByApi(page.request, user);
  await loginByApi(page.request, user);
  // The acknowledgement goes only to the account's proven address (ADR 046).
  await verifyEmailByLink(page.request, user);
  const subject = `Stuck send ${user.userName}`;

  await page.goto('/support');
  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Details').fill('My send has been pending for an hour.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('alert')).toHaveText("Verify ALTCHA: tick “I'm not a robot”");

  await page.locator('altcha-widget').getByText("I'm not a robot").click();
  await expect(page.locator('altcha-widget')).toContainText('Verified', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Send' }).click();

  const sheet = page.getByRole('alertdialog');
  await expect(sheet.getByRole('heading', { name: 'Success' })).toBeVisible();
  await expect(sheet).toContainText(`Your message was sent. We will reply to ${user.email}.`);
  await sheet.getByRole('button', { name: 'Ok' }).click();
  await expect(sheet).toHaveCount(0);

  await expect
    .poll(() => outbox().find((mail) => mail.includes(subject) && /^To: support@quern\.example/m.test(mail)) ?? null, {
      timeout: 20_000,
    })
    .not.toBeNull();
  const toSupport = outbox().find((mail) => mail.includes(subject) && /^To: support@quern\.example/m.test(mail)) ?? '';
  expect(toSupport).toMatch(new RegExp(`^Reply-To: Ada Lovelace <${user.email}>`, 'm'));
  await expect
    .poll(() => outbox().some((mail) => mail.includes(`To: ${user.email}`) && mail.includes('We received your message')))
    .toBe(true);
  expect(cspErrors).toEqual([]);
});
