// Proves account deletion from /profile in a real browser against a real Quern (issue 14): a wrong
// password is refused and the user stays signed in; the right one deletes the account, signs the
// browser out and lands on / with the notice, after which the same e-mail and password no longer
// sign in; and a wallet holding MLX cannot be deleted.
import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiUser, faucet, type TestUser, trpcQuery } from './users.js';

async function signIn(page: Page, user: TestUser): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The profile's 'Delete account' section (a region named by its heading). */
const deletion = (page: Page): Locator => page.getByRole('region', { name: 'Delete account' });

async function openDeletion(page: Page): Promise<Locator> {
  await page.goto('/profile');
  const section = deletion(page);
  await section.getByRole('button', { name: 'Delete account' }).click();
  await expect(section.getByLabel('Password', { exact: true })).toBeFocused();
  return section;
}

async function deleteWith(section: Locator, password: string): Promise<void> {
  await section.getByLabel('Password', { exact: true }).fill(password);
  await section.getByRole('button', { name: 'Delete my account' }).click();
}

test('a wrong password is refused and keeps the session; the right one deletes the account, and its e-mail and password no longer sign in', async ({
  page,
}) => {
  const { user, api } = await apiUser();
  await api.dispose();
  await signIn(page, user);
  await expect(page).toHaveURL(/\/account$/);

  const section = await openDeletion(page);
  await deleteWith(section, `${user.password} but wrong`);
  await expect(section.getByRole('alert')).toHaveText('The current password is not correct.');
  await expect(section.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await page.reload();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('username-value')).toHaveText(user.userName);

  const again = await openDeletion(page);
  await again.getByLabel('Password', { exact: true }).fill(user.password);
  await again.screenshot({ path: 'test-results/screenshots/account-deletion-confirm.png' });
  await again.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status')).toHaveText('Your account has been deleted.');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
  // The server ended the session, not only the page: the cookie no longer signs anything in.
  expect(await trpcQuery<unknown>(page.request, 'identity.session')).toBeNull();
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, user);
  await expect(page.getByRole('alert')).toHaveText('Invalid e-mail or password.');
  await expect(page).toHaveURL(/\/login$/);
});

test('a wallet that holds MLX cannot be deleted: the page says to empty it first and the user stays signed in', async ({ page }) => {
  test.setTimeout(90_000);
  const { user, api } = await apiUser();
  const { address } = await trpcQuery<{ address: string }>(api, 'wallet.address');
  await faucet(address, 1_000);
  await expect
    .poll(async () => {
      const { stable, unstable } = await trpcQuery<{ stable: string; unstable: string }>(api, 'wallet.balance');
      return BigInt(stable) + BigInt(unstable);
    })
    .toBeGreaterThan(0n);
  await api.dispose();
  await signIn(page, user);
  await expect(page).toHaveURL(/\/account$/);

  const section = await openDeletion(page);
  await deleteWith(section, user.password);
  await expect(section.getByRole('alert')).toHaveText(
    'Your wallet must be empty before the account can be deleted: send your MLX to another wallet and wait for pending transactions to finish.',
  );
  await expect(page).toHaveURL(/\/profile$/);
  expect(await trpcQuery<{ id: string } | null>(page.request, 'identity.session')).toMatchObject({ email: user.email });
});
