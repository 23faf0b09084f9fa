// Proves the identity flows in a real browser against a real Quern: registration lands signed in
// on /account and survives a reload, logout ends the session, every invalid registration shows
// the spec's message, and the language and dark-mode choices survive a reload.
import { expect, test, type Page } from '@playwright/test';
import { loginByApi, registerByApi, uniqueUser, type TestUser } from './users.js';

async function fillRegistration(page: Page, user: TestUser, confirmPassword = user.password): Promise<void> {
  await page.getByLabel('Username').fill(user.userName);
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Phone', { exact: true }).fill(user.phone);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(confirmPassword);
}

const registerButton = (page: Page) => page.getByRole('button', { name: 'Register', exact: true });

test('register lands signed in on /account, survives a reload, and logout ends the session', async ({ page }) => {
  const user = uniqueUser();
  await page.goto('/register');
  await fillRegistration(page, user);
  await registerButton(page).click();

  await expect(page).toHaveURL(/\/account$/);
  await expect(page.locator('.account-username')).toHaveText(user.userName);
  await expect(page.getByRole('button', { name: `Account menu: ${user.userName}` })).toBeVisible();

  await page.reload();
  await expect(page.locator('.account-username')).toHaveText(user.userName);

  await page.getByRole('button', { name: `Account menu: ${user.userName}` }).click();
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();

  await page.goto('/account');
  await expect(page).toHaveURL(/\/login$/);
});

test('opening /logout in the address bar while signed in signs out and lands on /', async ({ page }) => {
  const user = uniqueUser();
  await registerByApi(page.request, user);
  await loginByApi(page.request, user);
  await page.goto('/account');
  await expect(page.locator('.account-username')).toHaveText(user.userName);

  await page.goto('/logout');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
  // The home page itself, not a 'Loading...' left behind by the sign-out.
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
  await expect(page.getByText('Loading...')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/logout-address-bar.png' });
  expect((await page.request.post('/api/auth/verify')).status()).toBe(401);
});

test('a signed-in user who opens /login or /register is sent to /account', async ({ page }) => {
  const user = uniqueUser();
  await registerByApi(page.request, user);
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);

  await page.goto('/register');
  await expect(page).toHaveURL(/\/account$/);
});

test('wrong credentials show the server message above the submit button', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill('nobody@example.com');
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText('Invalid e-mail or password.');
  // Above the submit button, as the spec places sign-in errors.
  const alertBox = await alert.boundingBox();
  const buttonBox = await page.getByRole('button', { name: 'Sign in', exact: true }).boundingBox();
  expect(alertBox && buttonBox && alertBox.y < buttonBox.y).toBe(true);
});

test.describe('invalid registrations', () => {
  test('an empty form says all fields are required', async ({ page }) => {
    await page.goto('/register');
    await registerButton(page).click();
    await expect(page.getByRole('alert')).toHaveText('All fields are required');
    await expect(page).toHaveURL(/\/register$/);
  });

  test('a username with a space shows the format message', async ({ page }) => {
    await page.goto('/register');
    await fillRegistration(page, { ...uniqueUser(), userName: 'bad name' });
    await registerButton(page).click();
    await expect(
      page.getByText('Invalid username format. Please use combination of numbers, letters and underscore with no space in between.'),
    ).toBeVisible();
  });

  test('different passwords must match', async ({ page }) => {
    await page.goto('/register');
    await fillRegistration(page, uniqueUser(), 'something else');
    await registerButton(page).click();
    await expect(page.getByText('Both password must match')).toBeVisible();
  });

  test("a taken username shows the server's 409 message", async ({ page }) => {
    const existing = uniqueUser();
    await registerByApi(page.request, existing);
    await page.goto('/register');
    await fillRegistration(page, { ...uniqueUser(), userName: existing.userName });
    await registerButton(page).click();
    await expect(page.getByText('This username is already taken.')).toBeVisible();
    await expect(page).toHaveURL(/\/register$/);
  });
});

test('Spanish, once chosen, survives a reload', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Language: English' }).click();
  await page.getByRole('button', { name: 'Spanish' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
  await page.getByRole('button', { name: 'Idioma: Español' }).click();
  await expect(page.getByRole('button', { name: 'Español', exact: true })).toHaveAttribute('aria-current', 'true');
});

test('dark mode, once switched on, survives a reload', async ({ page }) => {
  await page.goto('/login');
  const darkMode = page.getByRole('switch', { name: 'Dark mode' });
  await expect(darkMode).toHaveAttribute('aria-checked', 'false');
  await darkMode.click();
  await expect(page.locator('body')).toHaveClass(/dark-mode/);

  await page.reload();
  await expect(page.locator('body')).toHaveClass(/dark-mode/);
  await expect(page.getByRole('switch', { name: 'Dark mode' })).toHaveAttribute('aria-checked', 'true');
  expect(await page.evaluate(() => localStorage.getItem('quern.darkMode'))).toBe('1');
});

test('an unknown route shows the 404 card', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 - Not found');
});
