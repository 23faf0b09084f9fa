// Proves the password reset in a real browser against a real Quern, from request to sign-in: the
// request page's answer, the e-mailed link (read from DATA_DIR/outbox, where Quern writes mail
// without SMTP), the confirmation page setting a new password, the old one refused and the new one
// signing in. The spent link is refused on a second use.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { recordSecret } from './secrets-record.js';
import { registerByApi, uniqueUser } from './users.js';

/** The reset link in the mail to `email`: quoted-printable soft breaks and =3D undone. */
async function resetLinkMailedTo(email: string): Promise<string> {
  const dataDir = process.env.QUERN_E2E_DATA_DIR;
  if (!dataDir) throw new Error('QUERN_E2E_DATA_DIR is not set (web/e2e/global-setup.ts sets it)');
  const outbox = join(dataDir, 'outbox');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const files = (() => {
          try {
            return readdirSync(outbox).filter((file) => file.startsWith('password-reset-email-'));
          } catch {
            return [];
          }
        })();
        for (const file of files) {
          const mail = readFileSync(join(outbox, file), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '=');
          if (!mail.includes(email)) continue;
          link = /(https?:\/\/\S+\/password-reset-verify\?t=[A-Za-z0-9._~%-]+)/.exec(mail)?.[1];
          if (link) {
            recordSecret('e-mailed link token', new URL(link).searchParams.get('t') ?? '');
            return true;
          }
        }
        return false;
      },
      { timeout: 20_000, message: `a reset link mailed to ${email}` },
    )
    .toBe(true);
  return link as string;
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('request, e-mailed link, new password, sign in with it; the old password and the spent link are refused', async ({ page }) => {
  const user = uniqueUser();
  await registerByApi(page.request, user);
  // A fresh context: registration's session must not turn the visitor pages away.
  await page.context().clearCookies();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page).toHaveURL(/\/password-reset$/);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toHaveText('Please check your email for password reset link.');

  const link = new URL(await resetLinkMailedTo(user.email));
  await page.goto(`${link.pathname}${link.search}`);
  recordSecret('password', 'a fresh secret here');
  await page.getByLabel('New password', { exact: true }).fill('a fresh secret here');
  await page.getByLabel('Confirm new password').fill('a fresh secret here');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByRole('status')).toContainText('Password updated successfully!');

  await signIn(page, user.email, user.password);
  await expect(page.getByRole('alert')).toHaveText('Invalid e-mail or password.');
  await signIn(page, user.email, 'a fresh secret here');
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.locator('.account-username')).toHaveText(user.userName);

  await page.context().clearCookies();
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByLabel('New password', { exact: true }).fill('a third secret here');
  await page.getByLabel('Confirm new password').fill('a third secret here');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This password reset link is invalid or has expired. Please request a new one.');
});
