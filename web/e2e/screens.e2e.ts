// Proves the main screens pass axe's WCAG A/AA checks (contrast included) in light and dark mode
// at 1280 px and 375 px, and saves a screenshot of each to test-results/screenshots/ for review.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { loginByApi, registerByApi, uniqueUser } from './users.js';

const viewports = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 375, height: 812 },
] as const;
const themes = ['light', 'dark'] as const;
const screens = [
  { name: 'home', path: '/', ready: 'Quern', signedIn: false },
  { name: 'register', path: '/register', ready: 'Create your account', signedIn: false },
  { name: 'login', path: '/login', ready: 'Sign in', signedIn: false },
  { name: 'account', path: '/account', ready: 'Your account', signedIn: true },
  { name: 'not-found', path: '/no-such-page', ready: '404 - Not found', signedIn: false },
] as const;

async function useTheme(page: Page, theme: (typeof themes)[number]): Promise<void> {
  await page.addInitScript((value) => localStorage.setItem('quern.darkMode', value), theme === 'dark' ? '1' : '0');
}

/** Soft, so that the screens after a failing one are still checked; `name` says which one failed. */
async function expectNoAxeViolations(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect
    .soft(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `axe on ${name}`,
    )
    .toEqual([]);
}

for (const viewport of viewports) {
  for (const theme of themes) {
    test.describe(`${viewport.name} ${theme}`, () => {
      // Axe measures contrast at one instant; text caught mid-fade (the home slogans) would read
      // as low contrast. With reduced motion the pages show their settled state.
      test.use({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: 'reduce' });

      test('register errors and the terms dialog are accessible', async ({ page }) => {
        await useTheme(page, theme);
        await page.goto('/register');
        await page.getByRole('button', { name: 'Register', exact: true }).click();
        await expect(page.getByRole('alert')).toHaveText('All fields are required');
        await page.screenshot({ path: `test-results/screenshots/register-errors-${viewport.name}-${theme}.png`, fullPage: true });
        await expectNoAxeViolations(page, 'register errors');

        await page.getByRole('button', { name: 'Read the terms' }).click();
        const dialog = page.getByRole('dialog', { name: 'Terms of Service in brief' });
        await expect(dialog).toBeVisible();
        await page.screenshot({ path: `test-results/screenshots/terms-dialog-${viewport.name}-${theme}.png` });
        await expectNoAxeViolations(page, 'terms dialog');
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        await expect(page.getByRole('button', { name: 'Read the terms' })).toBeFocused();
      });

      // One test per sign-in state, each screen a step of it: one browser page (and one signed-in
      // user) visits them all (ADR 070).
      for (const signedIn of [false, true]) {
        const group = screens.filter((screen) => screen.signedIn === signedIn);
        test(`${group.map((screen) => screen.name).join(', ')} ${group.length > 1 ? 'are' : 'is'} accessible`, async ({ page }) => {
          test.setTimeout(group.length * 30_000);
          await useTheme(page, theme);
          if (signedIn) {
            const user = uniqueUser();
            await registerByApi(page.request, user);
            await loginByApi(page.request, user);
          }
          for (const screen of group) {
            await test.step(screen.name, async () => {
              await page.goto(screen.path);
              await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.ready);
              if (screen.signedIn) await expect(page.locator('.account-username')).toBeVisible();

              await page.screenshot({ path: `test-results/screenshots/${screen.name}-${viewport.name}-${theme}.png`, fullPage: true });
              await expectNoAxeViolations(page, screen.name);
            });
          }
        });
      }
    });
  }
}

test.describe('mobile menu', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the links fold into the Menu button, which opens with the keyboard and closes on Escape', async ({ page }) => {
    await page.goto('/login');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const register = nav.getByRole('link', { name: 'Register' });
    await expect(register).toBeHidden();
    const menu = nav.getByRole('button', { name: 'Menu' });
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(register).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/menu-mobile-light.png' });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await expect(register).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeFocused();
  });

  test('a signed-in user reaches the profile dropdown through the Menu button', async ({ page }) => {
    await useTheme(page, 'dark');
    const user = uniqueUser();
    await registerByApi(page.request, user);
    await loginByApi(page.request, user);
    await page.goto('/account');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: `Account menu: ${user.userName}` }).click();
    await expect(page.getByRole('link', { name: 'Sign out' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/menu-signed-in-mobile-dark.png' });
    await expectNoAxeViolations(page, 'signed-in mobile menu');
  });
});
