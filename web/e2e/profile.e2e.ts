// Proves the profile page in a real browser against a real Quern: visitors go to /login; each value
// is edited with Edit then Save (kept after a reload) or Cancel (unchanged); a taken phone keeps the
// editor open with the server's message; the password editor refuses a confirmation that differs,
// Cancel clears it, and a saved password keeps this session, ends the other one and signs in.
import { expect, test, type Page } from '@playwright/test';
import { recordSecret } from './secrets-record.js';
import { loginByApi, registerByApi, uniqueUser, type TestUser } from './users.js';

async function signIn(page: Page, user: TestUser): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
}

const shownValue = (page: Page, id: string) => page.getByTestId(`${id}-value`);

test('a visitor who opens /profile is sent to /login', async ({ page }) => {
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
});

test('names and phone: Edit then Save keeps the new value after a reload; Cancel changes nothing; a taken phone is refused', async ({
  page,
  playwright,
}) => {
  const user = uniqueUser();
  const other = uniqueUser();
  await registerByApi(page.request, user);
  const api = await playwright.request.newContext({ baseURL: process.env.QUERN_E2E_BASE_URL });
  await registerByApi(api, other);
  await api.dispose();
  await signIn(page, user);
  await page.getByRole('button', { name: `Account menu: ${user.userName}` }).click();
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('username-value')).toHaveText(user.userName);

  await page.getByRole('button', { name: 'Edit First name' }).click();
  await page.getByLabel('First name', { exact: true }).fill('  Grace ');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(shownValue(page, 'first_name')).toHaveText('Grace');
  await expect(page.getByLabel('First name', { exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: 'Edit Last name' }).click();
  await page.getByLabel('Last name', { exact: true }).fill('Byron');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(shownValue(page, 'last_name')).toHaveText('Lovelace');

  await page.getByRole('button', { name: 'Edit Phone number' }).click();
  await page.getByLabel('Phone number', { exact: true }).fill(other.phone);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toHaveText('An account with this phone number already exists.');
  const fresh = uniqueUser().phone;
  await page.getByLabel('Phone number', { exact: true }).fill(`${fresh.slice(0, 2)} ${fresh.slice(2, 5)} ${fresh.slice(5)}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(shownValue(page, 'phone_number')).toHaveText(fresh);

  await page.reload();
  await expect(shownValue(page, 'first_name')).toHaveText('Grace');
  await expect(shownValue(page, 'last_name')).toHaveText('Lovelace');
  await expect(shownValue(page, 'phone_number')).toHaveText(fresh);
});

test('password: a differing confirmation is refused, Cancel clears, and a saved one signs in while the other session ends', async ({
  page,
  playwright,
}) => {
  const user = uniqueUser();
  await registerByApi(page.request, user);
  const elsewhere = await playwright.request.newContext({ baseURL: process.env.QUERN_E2E_BASE_URL });
  await loginByApi(elsewhere, user);
  await signIn(page, user);
  await page.goto('/profile');

  await page.getByRole('button', { name: 'Edit Password' }).click();
  await page.getByLabel('Current password', { exact: true }).fill(user.password);
  recordSecret('password', 'a brand new secret');
  await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
  await page.getByLabel('Confirm new password', { exact: true }).fill('a brand new secreT');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toHaveText('Passwords do not match.');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Edit Password' }).click();
  await expect(page.getByLabel('New password', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Confirm new password', { exact: true })).toHaveValue('');
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.getByLabel('Current password', { exact: true }).fill(user.password);
  await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
  await page.getByLabel('Confirm new password', { exact: true }).fill('a brand new secret');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toContainText('Password changed.');

  expect((await elsewhere.post('/api/auth/verify')).status()).toBe(401);
  await elsewhere.dispose();
  await page.reload();
  await expect(page.getByTestId('username-value')).toHaveText(user.userName);

  await page.getByRole('button', { name: `Account menu: ${user.userName}` }).click();
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await signIn(page, { ...user, password: 'a brand new secret' });
});
