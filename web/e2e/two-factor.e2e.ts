// Proves two-factor sign-in in a real browser against a real Quern (ADR 040): the profile shows a
// QR code and the secret as text, a code computed from that shown secret turns it on and the ten
// recovery codes are shown; signing in then asks for the code after the password, a wrong code is
// refused with its message, and the right one lands on /account. A recovery code also signs in.
import { expect, test, type Page } from '@playwright/test';
import { awayFromStepEnd, registerByApi, type TestUser, totpCode, uniqueUser } from './users.js';

async function passwordStep(page: Page, user: TestUser) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs in, turns two-factor on from the profile with a code from the shown secret, signs out. */
async function enableTwoFactor(page: Page, user: TestUser): Promise<{ secret: string; recoveryCodes: string[] }> {
  await registerByApi(page.request, user);
  await passwordStep(page, user);
  await expect(page).toHaveURL(/\/account$/);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('two-factor-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await awayFromStepEnd();
  // The step before now: the sign-in's code (this step's) must be a later one.
  await page.getByLabel('Code', { exact: true }).fill(totpCode(secret, -1));
  await page.getByRole('button', { name: 'Confirm and turn on' }).click();
  const shown = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(shown).toHaveCount(10);
  const recoveryCodes = await shown.allTextContents();
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('On: signing in asks for a code from your authenticator app.')).toBeVisible();
  await expect(page.getByText('Recovery codes left: 10')).toBeVisible();
  await page.context().clearCookies();
  return { secret, recoveryCodes };
}

test('turning two-factor on from the profile, then signing in asks for a code computed from the shown secret', async ({ page }) => {
  const user = uniqueUser();
  const { secret } = await enableTwoFactor(page, user);

  await passwordStep(page, user);
  await expect(page.getByLabel('Code', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Code', { exact: true }).fill(totpCode(secret, 9));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('That code is not valid. Enter the current code from your authenticator app.');

  await awayFromStepEnd();
  await page.getByLabel('Code', { exact: true }).fill(totpCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.locator('.account-username')).toHaveText(user.userName);
});

test('a recovery code signs in once', async ({ page }) => {
  const user = uniqueUser();
  const { recoveryCodes } = await enableTwoFactor(page, user);
  const recoveryCode = recoveryCodes[0] ?? '';

  await passwordStep(page, user);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/account$/);

  await page.context().clearCookies();
  await passwordStep(page, user);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('That recovery code is not valid or was already used.');
});
