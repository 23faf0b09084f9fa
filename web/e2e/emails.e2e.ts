// Proves the notice e-mails of issue 25 end to end, in English and in Spanish: two users registered
// in the language (their addresses proven by the mailed link), a faucet deposit to the shopper, a
// checkout paid in the browser from a shop page on another origin, and two-factor turned on and off
// on the profile. The sandbox outbox (DATA_DIR/outbox) then holds, in the users' language and with
// the sandbox tag, exactly one deposit notice and one receipt for the shopper, one "you were paid"
// for the merchant, and one notice each for two-factor on and off. Screenshots of the profile after
// the toggle at 1280 px (en) and 390 px (es) go to test-results/screenshots/emails-*.png.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, type BrowserContext, expect, request, test } from '@playwright/test';
import { parseEml, type ParsedEml } from '@quern/test-support/eml';
import { type Language, readLocale } from './contentPages.js';
import {
  awayFromStepEnd,
  checkoutUrl,
  faucet,
  loginByApi,
  openCheckoutFromShop,
  registerByApi,
  shopForTheseTests,
  type TestUser,
  totpCode,
  trpcQuery,
  uniqueUser,
  verifyEmailByLink,
} from './users.js';

const quernUrl = () => process.env.QUERN_E2E_BASE_URL ?? '';
const SETTLE_TIMEOUT_MS = 30_000;
const MAIL_TIMEOUT_MS = 30_000;

const shopFixture = shopForTheseTests();
const { openContexts, openRequests } = shopFixture;

type Texts = { subject: string; notYou: string };
interface CheckoutTexts {
  payNow: string;
}
interface TwoFactorTexts {
  enable: string;
  code: string;
  confirm: string;
  recoveryDone: string;
  statusOn: string;
  disable: string;
  password: string;
  disableConfirm: string;
  statusOff: string;
}
interface NoticeTexts {
  checkoutReceipt: Texts;
  checkoutPaid: Texts;
  moneyReceived: Texts;
  twoFactorEnabled: Texts;
  twoFactorDisabled: Texts;
}

const fill = (template: string, params: Record<string, string>) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => params[name] ?? '');
const mlxIn = (language: Language, mlx: number) =>
  new Intl.NumberFormat(language === 'es' ? 'es-ES' : 'en-US', { useGrouping: 'always' }).format(mlx);

/** A user registered from a client in `language`, signed in on its own API context, its address proven. */
async function member(language: Language): Promise<{ user: TestUser; api: APIRequestContext }> {
  const user = uniqueUser();
  const api = await request.newContext({ baseURL: quernUrl(), extraHTTPHeaders: { 'accept-language': language } });
  openRequests.push(api);
  await registerByApi(api, user);
  await verifyEmailByLink(api, user);
  await loginByApi(api, user);
  return { user, api };
}

/** Every notice mailed to `email` so far, parsed (subjects decoded). */
function noticesTo(email: string): ParsedEml[] {
  const outbox = join(process.env.QUERN_E2E_DATA_DIR ?? '', 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(outbox).filter((file) => file.startsWith('notice-') && file.endsWith('.eml'));
  } catch {
    return [];
  }
  return files.map((file) => parseEml(readFileSync(join(outbox, file), 'utf8'))).filter((mail) => mail.to.includes(email));
}

async function noticeWithSubject(email: string, subject: string): Promise<ParsedEml> {
  await expect
    .poll(() => noticesTo(email).filter((mail) => mail.subject === subject).length, { timeout: MAIL_TIMEOUT_MS, message: subject })
    .toBe(1);
  return noticesTo(email).find((mail) => mail.subject === subject) as ParsedEml;
}

async function browserContextIn(browser: import('@playwright/test').Browser, language: Language, width: number): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
  openContexts.push(context);
  // As the app stores a language choice, for every page of the context (the checkout popup too).
  await context.addInitScript((lng) => {
    localStorage.setItem('quern.darkMode', '0');
    localStorage.setItem('quern.language', lng);
  }, language);
  await context.addCookies([{ name: 'quern.language', value: language, url: quernUrl() }]);
  return context;
}

const cases = [
  { language: 'en', width: 1280 },
  { language: 'es', width: 390 },
] as const;

for (const { language, width } of cases) {
  test(`a checkout payment and a two-factor toggle mail the shopper, the merchant and the owner once each, in their language (${language}, ${width} px)`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const notice = readLocale<{ notice: NoticeTexts }>(language, 'email').notice;
    const checkout = readLocale<CheckoutTexts>(language, 'checkout');
    const twoFactor = readLocale<TwoFactorTexts>(language, 'twoFactor');
    const { user: merchant } = await member(language);
    const { user: shopper, api: shopperApi } = await member(language);

    await faucet(shopper.userName, 300_000);
    await expect
      .poll(() => trpcQuery<{ stable: string }>(shopperApi, 'wallet.balance').then((b) => b.stable), { timeout: SETTLE_TIMEOUT_MS })
      .toBe('300000');
    await noticeWithSubject(shopper.email, `[Sandbox] ${fill(notice.moneyReceived.subject, { mlx: mlxIn(language, 300_000) })}`);

    // The checkout, paid from the popup a shop on another origin opens; the context is signed in as the shopper.
    const context = await browserContextIn(browser, language, width);
    await loginByApi(context.request, shopper);
    const reference = `INV-${language}-${Date.now().toString(36)}`;
    const { popup } = await openCheckoutFromShop(
      context,
      shopFixture.shop,
      checkoutUrl(merchant.userName, `mail-${language}`, { reference }),
    );
    const closed = popup.waitForEvent('close');
    await popup.getByRole('button', { name: checkout.payNow }).click();
    await closed;

    const amount = mlxIn(language, 100_000);
    const receipt = await noticeWithSubject(
      shopper.email,
      `[Sandbox] ${fill(notice.checkoutReceipt.subject, { shop: merchant.userName, mlx: amount })}`,
    );
    expect(receipt.text).toContain(reference);
    // The receipt e-mail links to the payment's printable receipt (ADR 091).
    expect(receipt.text).toContain(`${quernUrl()}/receipts/checkout-`);
    const paid = await noticeWithSubject(
      merchant.email,
      `[Sandbox] ${fill(notice.checkoutPaid.subject, { payer: shopper.userName, mlx: amount })}`,
    );
    expect(paid.text).toContain(reference);

    // Two-factor on, then off, on the profile.
    const page = await context.newPage();
    await page.goto('/profile');
    await page.getByRole('button', { name: twoFactor.enable, exact: true }).click();
    const secret = (await page.getByTestId('two-factor-secret').textContent()) ?? '';
    await awayFromStepEnd();
    await page.getByLabel(twoFactor.code, { exact: true }).fill(totpCode(secret, -1));
    await page.getByRole('button', { name: twoFactor.confirm }).click();
    await page.getByRole('button', { name: twoFactor.recoveryDone }).click();
    await expect(page.getByText(twoFactor.statusOn)).toBeVisible();
    await noticeWithSubject(shopper.email, `[Sandbox] ${notice.twoFactorEnabled.subject}`);

    await page.getByRole('button', { name: twoFactor.disable, exact: true }).click();
    await page.getByLabel(twoFactor.password, { exact: true }).fill(shopper.password);
    await awayFromStepEnd();
    await page.getByLabel(twoFactor.code, { exact: true }).fill(totpCode(secret));
    await page.getByRole('button', { name: twoFactor.disableConfirm }).click();
    await expect(page.getByText(twoFactor.statusOff)).toBeVisible();
    await page.screenshot({ path: `test-results/screenshots/emails-profile-${language}-${width}.png`, fullPage: true });
    const off = await noticeWithSubject(shopper.email, `[Sandbox] ${notice.twoFactorDisabled.subject}`);
    expect(off.text).toContain(notice.twoFactorDisabled.notYou.slice(0, 20));

    // One of each, nothing twice: the deposit, the receipt and the two security notices; the merchant's one.
    expect(noticesTo(shopper.email)).toHaveLength(4);
    expect(noticesTo(merchant.email)).toHaveLength(1);
  });
}
