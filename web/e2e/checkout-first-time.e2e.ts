// Proves what a first-time shopper meets in the checkout popup, in a real browser against a real
// Quern, in English and Spanish at the popup's size (480×720) and at 390 px: signed out, the Sign
// In form keeps its place and Register and 'Forgot password?' lead away and back to the same
// checkout URL, query intact (registration signs in and returns; a reset, finished from the
// e-mailed link, signs in and returns); a foreign, absolute or '//evil' next is ignored. Signed
// in, the popup names who pays and their balance, and the shortfall (total - balance, the 4001
// figure) before Pay now; each top-up says the MLX it buys at the server's rate; after choosing
// one, 'Choose another amount' is in view without scrolling; a declined card and a closed PayPal
// window each say nothing was charged, as on Buy. Screenshots under
// test-results/screenshots/checkout-first-*.png, axe on each new state.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { recordSecret } from './secrets-record.js';
import { apiUser, checkoutUrl, type TestUser, trpcQuery, uniqueUser } from './users.js';

/** The capture waits for the capture worker (CAPTURE_WAIT_MS, 20 s by default) before it answers. */
const CAPTURE_TIMEOUT_MS = 30_000;

const sizes = [
  { name: 'popup', width: 480, height: 720 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const texts = {
  en: {
    login: 'Login',
    email: 'E-mail',
    password: 'Password',
    register: 'Register',
    forgot: 'Forgot password?',
    registration: {
      userName: 'Username',
      firstName: 'First name',
      lastName: 'Last name',
      email: 'E-mail',
      phone: 'Phone',
      password: 'Password',
      confirm: 'Confirm password',
    },
    payNow: 'Pay now',
    payingAs: (username: string) => `Paying as @${username}`,
    balanceZero: 'Your balance: 0 MLX',
    shortfall: 'Your balance is not enough for this order. An additional 100,000 (mlx) is needed to complete this purchase.',
    insufficient: 'An additional 100,000 (mlx) is needed to complete this purchase.',
    // The e2e server's rate (global-setup.ts): 5 USD buys 416,666 MLX.
    options: ['Add 5.00 USD · 416,666 MLX', 'Add 10.00 USD · 833,333 MLX', 'Add 15.00 USD · 1,250,000 MLX'],
    chooseAnother: 'Choose another amount',
    declined: 'Your card was declined. Nothing was charged. Try another card.',
    cancelled: 'Payment cancelled. Nothing was charged.',
    resetSubmit: 'Send reset link',
    resetSent: 'Please check your email for password reset link.',
    backToCheckout: 'Back to checkout',
    newPassword: 'New password',
    confirmNewPassword: 'Confirm new password',
    updatePassword: 'Update password',
    signInLink: 'Sign in',
    signInButton: 'Sign in',
  },
  es: {
    login: 'Iniciar sesión',
    email: 'Correo electrónico',
    password: 'Contraseña',
    register: 'Registrarse',
    forgot: '¿Olvidó su contraseña?',
    registration: {
      userName: 'Nombre de usuario',
      firstName: 'Nombre',
      lastName: 'Apellidos',
      email: 'Correo electrónico',
      phone: 'Teléfono',
      password: 'Contraseña',
      confirm: 'Confirmar contraseña',
    },
    payNow: 'Pagar ahora',
    payingAs: (username: string) => `Pagará como @${username}`,
    balanceZero: 'Su saldo: 0 MLX',
    shortfall: 'Su saldo no alcanza para este pedido. Se necesitan 100.000 (mlx) adicionales para completar esta compra.',
    insufficient: 'Se necesitan 100.000 (mlx) adicionales para completar esta compra.',
    options: ['Añadir 5,00 USD · 416.666 MLX', 'Añadir 10,00 USD · 833.333 MLX', 'Añadir 15,00 USD · 1.250.000 MLX'],
    chooseAnother: 'Elegir otro importe',
    declined: 'Su tarjeta fue rechazada. No se ha cobrado nada. Pruebe con otra tarjeta.',
    cancelled: 'Pago cancelado. No se ha cobrado nada.',
    resetSubmit: 'Enviar enlace',
    resetSent: 'Revise su correo electrónico: le hemos enviado un enlace para restablecer la contraseña.',
    backToCheckout: 'Volver al pago',
    newPassword: 'Contraseña nueva',
    confirmNewPassword: 'Confirmar contraseña nueva',
    updatePassword: 'Actualizar contraseña',
    signInLink: 'Iniciar sesión',
    signInButton: 'Iniciar sesión',
  },
} as const;

type Language = keyof typeof texts;

const openContexts: BrowserContext[] = [];
const openRequests: APIRequestContext[] = [];
test.afterEach(async () => {
  await Promise.all(openContexts.splice(0).map((context) => context.close()));
  await Promise.all(openRequests.splice(0).map((api) => api.dispose()));
});

async function trackedApiUser(): Promise<{ user: TestUser; api: APIRequestContext }> {
  const created = await apiUser();
  openRequests.push(created.api);
  return created;
}

async function popupContext(browser: Browser, language: Language, size: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({
    baseURL: process.env.QUERN_E2E_BASE_URL,
    viewport: { width: size.width, height: size.height },
    reducedMotion: 'reduce',
  });
  openContexts.push(context);
  await context.addCookies([{ name: 'quern.language', value: language, url: process.env.QUERN_E2E_BASE_URL ?? '' }]);
  return context.newPage();
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** The newest reset link mailed to `email`, from DATA_DIR/outbox (quoted-printable undone). */
async function resetLinkMailedTo(email: string): Promise<URL> {
  const outbox = join(process.env.QUERN_E2E_DATA_DIR ?? '', 'outbox');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        let files: string[] = [];
        try {
          files = readdirSync(outbox).filter((file) => file.startsWith('password-reset-email-'));
        } catch {
          return false;
        }
        for (const file of files) {
          const mail = readFileSync(join(outbox, file), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '=');
          if (!mail.includes(email)) continue;
          link = /(https?:\/\/\S+\/password-reset-verify\?t=[A-Za-z0-9._~%-]+)/.exec(mail)?.[1];
          if (link) return true;
        }
        return false;
      },
      { timeout: 20_000, message: `a reset link mailed to ${email}` },
    )
    .toBe(true);
  const url = new URL(link as string);
  recordSecret('e-mailed link token', url.searchParams.get('t') ?? '');
  return url;
}

/** The checkout's path and query, as a `next` would carry it. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

for (const language of ['en', 'es'] as const) {
  for (const size of sizes) {
    const say = texts[language];
    const shot = (name: string) => `test-results/screenshots/checkout-first-${name}-${language}-${size.name}.png`;

    test(`signed out, Register returns to the same checkout; who pays, balance, shortfall, top-ups in MLX, decline and cancel notices (${language}, ${size.name})`, async ({
      browser,
    }) => {
      test.setTimeout(150_000);
      const { user: merchant } = await trackedApiUser();
      const page = await popupContext(browser, language, size);
      const checkout = checkoutUrl(merchant.userName, `first-${language}-${size.name}`, { reference: 'A-1001' });
      await page.goto(checkout);
      const opened = page.url();

      // Signed out: the spec's Sign In form stays, with Register and Forgot password beside it.
      await expect(page.getByRole('button', { name: say.login, exact: true })).toBeVisible();
      const registerLink = page.getByRole('link', { name: say.register, exact: true });
      const forgotLink = page.getByRole('link', { name: say.forgot, exact: true });
      await expect(registerLink).toBeVisible();
      await expect(forgotLink).toBeVisible();
      expect(new URL((await forgotLink.getAttribute('href')) ?? '', opened).searchParams.get('next')).toBe(pathOf(opened));
      await page.screenshot({ path: shot('signin'), fullPage: true });
      await expectNoSeriousViolations(page);

      // Register: the account is made, signed in, and the popup is back on the very same checkout.
      await registerLink.click();
      await expect(page).toHaveURL(/\/register\?next=/);
      const shopper = uniqueUser();
      const field = say.registration;
      await page.getByLabel(field.userName, { exact: true }).fill(shopper.userName);
      await page.getByLabel(field.firstName, { exact: true }).fill(shopper.firstName);
      await page.getByLabel(field.lastName, { exact: true }).fill(shopper.lastName);
      await page.getByLabel(field.email, { exact: true }).fill(shopper.email);
      await page.getByLabel(field.phone, { exact: true }).fill(shopper.phone);
      await page.getByLabel(field.password, { exact: true }).fill(shopper.password);
      await page.getByLabel(field.confirm, { exact: true }).fill(shopper.password);
      await page.getByRole('button', { name: say.register, exact: true }).click();
      await expect(page).toHaveURL(opened);

      // Who pays, their balance, and the shortfall before the click.
      const pay = page.getByRole('button', { name: say.payNow, exact: true });
      await expect(pay).toBeVisible();
      const payer = page.getByTestId('checkout-payer');
      await expect(payer).toContainText(say.payingAs(shopper.userName));
      await expect(payer).toContainText(say.balanceZero);
      await expect(page.getByTestId('checkout-shortfall')).toHaveText(say.shortfall);
      await page.screenshot({ path: shot('shortfall'), fullPage: true });
      await expectNoSeriousViolations(page);

      // The spec's 4001: the same figure, and top-ups that say what they buy.
      await pay.click();
      await expect(page.getByRole('alert').filter({ hasText: say.insufficient })).toBeVisible();
      await expect(page.getByTestId('checkout-shortfall')).toHaveCount(0);
      await expect(page.locator('.checkout-topup-options button')).toHaveText([...say.options]);
      await page.screenshot({ path: shot('topups'), fullPage: true });

      // A chosen amount: 'Choose another amount' is in view without scrolling.
      await page.getByRole('button', { name: say.options[0], exact: true }).click();
      await expect(page.getByRole('button', { name: 'PayPal', exact: true })).toBeVisible();
      const another = page.getByRole('button', { name: say.chooseAnother, exact: true });
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await expect(another).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: shot('paypal') });

      // Declined at capture: said in the popup, nothing charged, PayPal's window starts over.
      const [paypal] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'PayPal', exact: true }).click()]);
      await paypal.waitForURL(/\/paypal-local\/checkoutnow\?token=/);
      await paypal.getByRole('button', { name: 'Decline card' }).click();
      await expect(page.getByRole('alert').filter({ hasText: say.declined })).toBeVisible({ timeout: CAPTURE_TIMEOUT_MS });
      await expect(paypal.getByRole('button', { name: 'Approve payment' })).toBeVisible();
      expect(await trpcQuery<{ stable: string; unstable: string }>(page.request, 'wallet.balance')).toMatchObject({
        stable: '0',
        unstable: '0',
      });
      await page.screenshot({ path: shot('declined'), fullPage: true });
      await expectNoSeriousViolations(page);

      // The window closed: cancelled, nothing charged.
      await paypal.close();
      await expect(page.getByRole('status').filter({ hasText: say.cancelled })).toBeVisible();
      await expect(page.getByRole('alert').filter({ hasText: say.declined })).toHaveCount(0);
      await page.screenshot({ path: shot('cancelled'), fullPage: true });
      await expectNoSeriousViolations(page);
    });

    test(`signed out, Forgot password and the e-mailed reset return to the same checkout (${language}, ${size.name})`, async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const { user: merchant } = await trackedApiUser();
      const { user: shopper } = await trackedApiUser();
      const page = await popupContext(browser, language, size);
      await page.goto(checkoutUrl(merchant.userName, `reset-${language}-${size.name}`));
      const opened = page.url();

      await page.getByRole('link', { name: say.forgot, exact: true }).click();
      await expect(page).toHaveURL(/\/password-reset\?next=/);
      await page.getByLabel(say.email, { exact: true }).fill(shopper.email);
      await page.getByRole('button', { name: say.resetSubmit, exact: true }).click();
      const back = page.getByRole('link', { name: say.backToCheckout, exact: true });
      await expect(back).toHaveAttribute('href', pathOf(opened));
      await expect(page.getByRole('status')).toHaveText(say.resetSent);
      await page.screenshot({ path: shot('reset-sent'), fullPage: true });
      await expectNoSeriousViolations(page);

      // The mailed link, opened in this browser: a new password, then sign-in returns to the checkout.
      const link = await resetLinkMailedTo(shopper.email);
      const mailPage = await page.context().newPage();
      await mailPage.goto(link.pathname + link.search);
      recordSecret('password', 'a fresh secret here');
      await mailPage.getByLabel(say.newPassword, { exact: true }).fill('a fresh secret here');
      await mailPage.getByLabel(say.confirmNewPassword, { exact: true }).fill('a fresh secret here');
      await mailPage.getByRole('button', { name: say.updatePassword, exact: true }).click();
      await mailPage.getByRole('status').getByRole('link', { name: say.signInLink, exact: true }).click();
      await expect(mailPage).toHaveURL(/\/login\?next=%2Fcheckout%3F/);
      await mailPage.getByLabel(say.email, { exact: true }).fill(shopper.email);
      await mailPage.getByLabel(say.password, { exact: true }).fill('a fresh secret here');
      await mailPage.getByRole('button', { name: say.signInButton, exact: true }).click();
      await expect(mailPage).toHaveURL(opened);
      await expect(mailPage.getByRole('button', { name: say.payNow, exact: true })).toBeVisible();

      // The popup's own way back reaches the same checkout (it keeps its opener), where the new password signs in.
      await back.click();
      await expect(page).toHaveURL(opened);
      await page.getByLabel(say.email, { exact: true }).fill(shopper.email);
      await page.getByLabel(say.password, { exact: true }).fill('a fresh secret here');
      await page.getByRole('button', { name: say.login, exact: true }).click();
      await expect(page.getByRole('button', { name: say.payNow, exact: true })).toBeVisible();
    });
  }
}

test('a foreign, absolute or //evil next is ignored by Register and the reset request', async ({ browser }) => {
  test.setTimeout(60_000);
  const page = await popupContext(browser, 'en', sizes[0]);
  for (const next of ['//evil.example/checkout', 'https://evil.example/checkout', '/\\evil.example']) {
    await page.goto(`/password-reset?next=${encodeURIComponent(next)}`);
    await expect(page.locator('.auth-switch').getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
    await expect(page.getByRole('link', { name: texts.en.backToCheckout })).toHaveCount(0);
  }
  await page.goto(`/register?next=${encodeURIComponent('//evil.example/checkout')}`);
  await expect(page.locator('.auth-switch').getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute('href', '/login');
  const shopper = uniqueUser();
  const field = texts.en.registration;
  await page.getByLabel(field.userName, { exact: true }).fill(shopper.userName);
  await page.getByLabel(field.firstName, { exact: true }).fill(shopper.firstName);
  await page.getByLabel(field.lastName, { exact: true }).fill(shopper.lastName);
  await page.getByLabel(field.email, { exact: true }).fill(shopper.email);
  await page.getByLabel(field.phone, { exact: true }).fill(shopper.phone);
  await page.getByLabel(field.password, { exact: true }).fill(shopper.password);
  await page.getByLabel(field.confirm, { exact: true }).fill(shopper.password);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page).toHaveURL(new URL('/account', page.url()).href);
});
