/** Test users: unique on every call, so tests can run in parallel against one server. */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type APIRequestContext, type BrowserContext, type Page, expect, request, test } from '@playwright/test';
import { verificationTokenIn } from '@quern/test-support/eml';
import { Secret, TOTP } from 'otpauth';
import { recordSecret } from './secrets-record.js';

export interface TestUser {
  userName: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  password: string;
}

let sequence = 0;

export function uniqueUser(): TestUser {
  sequence += 1;
  const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}${sequence}`;
  // Seven digits after +1555 derived from the time, the process and the sequence keep phones unique.
  const phoneDigits = String((Date.now() * 7 + process.pid * 131 + sequence) % 10_000_000).padStart(7, '0');
  const user = {
    userName: `e2e_${suffix}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `e2e-${suffix}@example.com`,
    phone: `+1555${phoneDigits}`,
    password: 'correct horse battery',
  };
  // None of these may reach the server's log (global-teardown.ts).
  recordSecret('e-mail address', user.email);
  recordSecret('phone number', user.phone);
  recordSecret('password', user.password);
  return user;
}

/** Registers through the spec's REST call (POST /api/user/register), bypassing the form. */
export async function registerByApi(request: APIRequestContext, user: TestUser): Promise<void> {
  const response = await request.post('/api/user/register', { data: user });
  if (!response.ok()) throw new Error(`register answered ${response.status()}: ${await response.text()}`);
}

/** Signs in through POST /api/user/login; the session cookie lands in the request's context. */
export async function loginByApi(request: APIRequestContext, user: TestUser): Promise<void> {
  const response = await request.post('/api/user/login', { data: { email: user.email, password: user.password } });
  if (!response.ok()) throw new Error(`login answered ${response.status()}: ${await response.text()}`);
}

/**
 * The path of the newest e-mail verification link mailed to `email` (`/verify-email?t=...`),
 * read from DATA_DIR/outbox, where Quern writes mail without SMTP (ADR 046).
 */
export async function verificationLinkMailedTo(email: string): Promise<string> {
  const dataDir = process.env.QUERN_E2E_DATA_DIR;
  if (!dataDir) throw new Error('QUERN_E2E_DATA_DIR is not set: run through playwright (web/e2e/global-setup.ts)');
  const outbox = join(dataDir, 'outbox');
  let token: string | undefined;
  await expect
    .poll(
      () => {
        let files: string[] = [];
        try {
          // Only finished mails: the outbox writes a `.partial` file first and renames it, so a
          // partial one listed here may be gone by the time it is read.
          files = readdirSync(outbox).filter(
            (file) => (file.startsWith('welcome-email-') || file.startsWith('email-verification-email-')) && file.endsWith('.eml'),
          );
        } catch {
          return false;
        }
        const mails = files
          .map((file) => readFileSync(join(outbox, file), 'utf8'))
          .filter((mail) => new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}\\s*$`, 'mi').test(mail));
        token = mails.map(verificationTokenIn).findLast((found) => found !== undefined);
        return token !== undefined;
      },
      { timeout: 20_000, message: `a verification link mailed to ${email}` },
    )
    .toBe(true);
  recordSecret('e-mailed link token', token ?? '');
  return `/verify-email?t=${token}`;
}

/**
 * Proves the user's e-mail address through the link mailed to it, as its owner would (ADR 046):
 * until then no one can pay the user by e-mail address. `request` needs no session.
 */
export async function verifyEmailByLink(request: APIRequestContext, user: Pick<TestUser, 'email'>): Promise<void> {
  const link = await verificationLinkMailedTo(user.email);
  const token = new URL(link, 'http://quern.invalid').searchParams.get('t');
  const response = await request.post('/api/user/email/verify', { data: { token } });
  if (!response.ok()) throw new Error(`verify answered ${response.status()}: ${await response.text()}`);
}

const quernUrl = () => process.env.QUERN_E2E_BASE_URL ?? '';

/** A new user, registered and signed in on an API context of their own. */
export async function apiUser(): Promise<{ user: TestUser; api: APIRequestContext }> {
  const user = uniqueUser();
  const api = await request.newContext({ baseURL: quernUrl() });
  await registerByApi(api, user);
  await loginByApi(api, user);
  return { user, api };
}

/** A tRPC query's data (its input, if any, JSON in ?input=), or an error naming the procedure and the answer. */
export async function trpcQuery<T>(api: APIRequestContext, path: string, input?: unknown): Promise<T> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await api.get(`/trpc/${path}${query}`);
  if (!response.ok()) throw new Error(`${path} answered ${response.status()}: ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/**
 * Deposits MLX to an address (or a user's wallet) through the dev faucet, against the e2e Quern's
 * data dir. It runs the faucet command's own code (`runFaucet`, the same arguments and environment)
 * in this worker instead of a `tsx` process per call: a process cost about 1.5 s of CPU, and
 * the journeys call it 27 times (ADR 070). Imported on first use, so specs without deposits never
 * load the event store and the simulated network.
 */
export async function faucet(to: string, amountMlx: number, options: { confirmDelayMs?: number } = {}): Promise<void> {
  const dataDir = process.env.QUERN_E2E_DATA_DIR;
  if (!dataDir) throw new Error('QUERN_E2E_DATA_DIR is not set: run through playwright (web/e2e/global-setup.ts)');
  const { runFaucet } = await import('@quern/adapters/millix/faucet');
  const lines: string[] = [];
  const code = await runFaucet(
    ['--to', to, '--amount', String(amountMlx)],
    {
      ...process.env,
      DATA_DIR: dataDir,
      MILLIX_CONFIRM_DELAY_MS: String(options.confirmDelayMs ?? process.env.QUERN_E2E_MILLIX_CONFIRM_DELAY_MS ?? '2000'),
    },
    { log: (line) => lines.push(line), error: (line) => lines.push(line) },
  );
  if (code !== 0) throw new Error(`the faucet exited with ${code}: ${lines.join('\n')}`);
}

/** A tRPC mutation's data, or an error naming the procedure and the answer. */
export async function trpcMutation<T>(api: APIRequestContext, path: string, input?: unknown): Promise<T> {
  // Always a JSON body (the api refuses others): a procedure without input ignores the empty object.
  const response = await api.post(`/trpc/${path}`, { data: input ?? {} });
  if (!response.ok()) throw new Error(`${path} answered ${response.status()}: ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** The code of the step `offset` steps from now, as an authenticator app holding `secret` shows it. */
export const totpCode = (secret: string, offset = 0): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + offset * 30_000 });

/** Waits out the end of a 30-second step, so a code made now is checked inside its window. */
export async function awayFromStepEnd(): Promise<void> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 25_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoStep + 200));
}

/**
 * Turns two-factor on for the user signed in on `api` through identity.startTwoFactor and
 * identity.confirmTwoFactor (ADR 040), confirming with the code of the step before now: a code of
 * the current step is then still unused for the sign-in.
 */
export async function enableTwoFactorByApi(api: APIRequestContext): Promise<{ secret: string; recoveryCodes: string[] }> {
  const enrollment = await trpcMutation<{ enrollment_id: string; secret: string }>(api, 'identity.startTwoFactor');
  recordSecret('two-factor secret', enrollment.secret);
  await awayFromStepEnd();
  const confirmed = await trpcMutation<{ recovery_codes: string[] }>(api, 'identity.confirmTwoFactor', {
    enrollment_id: enrollment.enrollment_id,
    code: totpCode(enrollment.secret, -1),
  });
  const status = await trpcQuery<{ enabled: boolean }>(api, 'identity.twoFactorStatus');
  if (!status.enabled) throw new Error('two-factor is still off after identity.confirmTwoFactor');
  return { secret: enrollment.secret, recoveryCodes: confirmed.recovery_codes };
}

/**
 * A shop on another origin than Quern's ('localhost' against Quern's 127.0.0.1): its page has a
 * 'Buy with Quern' button that opens the checkout address it is given (?checkout=) as a 480 x 760
 * popup, and records every message it receives (origin and data) in window.received.
 */
const SHOP_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
<h1>Tea shop</h1><button id="buy" type="button">Buy with Quern</button>
<script>
window.received = [];
window.addEventListener('message', (event) => window.received.push({ origin: event.origin, data: event.data }));
document.getElementById('buy').addEventListener('click', () => {
  const params = new URLSearchParams(location.search);
  window.open(params.get('checkout'), 'quern_checkout', 'popup,width=480,height=760');
});
</script></body></html>`;

/** The size the shop page asks for its popup. */
export const SHOP_POPUP_SIZE = { width: 480, height: 760 } as const;

export interface Shop {
  url: string;
  close(): Promise<void>;
}

export async function startShop(): Promise<Shop> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(SHOP_PAGE);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** The address of a checkout of 100,000 MLX (two teas and a cup) paying `merchant`. */
export function checkoutUrl(merchant: string, marker: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    cart: JSON.stringify([
      { name: `Green tea ${marker}`, price: '40000', quantity: 2 },
      { name: 'Tea cup', price: '20000', quantity: 1 },
    ]),
    price: '100000',
    currency: 'mlx',
    to: merchant,
    ...extra,
  });
  return `${quernUrl()}/checkout?${params}`;
}

/** The shop page opens the checkout popup, sized as the shop asks; returns both. */
export async function openCheckoutFromShop(
  context: BrowserContext,
  shop: Shop,
  checkout: string,
): Promise<{ shopPage: Page; popup: Page }> {
  const shopPage = await context.newPage();
  await shopPage.goto(`${shop.url}/?${new URLSearchParams({ checkout })}`);
  const [popup] = await Promise.all([shopPage.waitForEvent('popup'), shopPage.getByRole('button', { name: 'Buy with Quern' }).click()]);
  // Playwright gives a popup the context's viewport; the shop's window.open asked for this one.
  await popup.setViewportSize(SHOP_POPUP_SIZE);
  await popup.waitForLoadState();
  return { shopPage, popup };
}

export interface ShopMessage {
  origin: string;
  data: Record<string, unknown>;
}

/** Every message the shop page received so far. */
export const shopMessages = (shopPage: Page): Promise<ShopMessage[]> =>
  shopPage.evaluate(() => (window as unknown as { received: ShopMessage[] }).received);

/**
 * For a spec file's tests: a shop page on another origin, started before them and stopped after,
 * and lists where each test puts the browser contexts and API sessions it opens, closed after it.
 */
export function shopForTheseTests(): { readonly shop: Shop; openContexts: BrowserContext[]; openRequests: APIRequestContext[] } {
  let started: Shop | undefined;
  const openContexts: BrowserContext[] = [];
  const openRequests: APIRequestContext[] = [];
  test.beforeAll(async () => {
    started = await startShop();
  });
  test.afterAll(async () => {
    await started?.close();
  });
  test.afterEach(async () => {
    await Promise.all(openContexts.splice(0).map((context) => context.close()));
    await Promise.all(openRequests.splice(0).map((context) => context.dispose()));
  });
  return {
    get shop() {
      if (!started) throw new Error('the shop starts in beforeAll');
      return started;
    },
    openContexts,
    openRequests,
  };
}
