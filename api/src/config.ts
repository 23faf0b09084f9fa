/**
 * Configuration, parsed from the environment by zod at start-up. A bad value stops the process
 * with a message naming the variable, never a half-configured server.
 */
import { z } from 'zod';
import { LOG_LEVELS } from '@quern/adapters/runtime';
import { formatModeFaults, modeFaults } from './modes/live-settings.js';

/** See CAPTCHA_ITERATIONS below; measured by bench/captcha.ts. */
export const CAPTCHA_ITERATIONS_DEFAULT = 30_000;

// 0 asks the OS for a free port (tests).
const port = z.coerce.number().int().min(0).max(65535);

export const configSchema = z.object({
  /**
   * `sandbox` (default): test money only; the stand-ins (simulated network, local PayPal, faucet,
   * mail outbox) are allowed and are the defaults. `live`: real money; every stand-in is refused
   * and the settings real money needs must be given (api/src/modes).
   */
  QUERN_MODE: z.enum(['sandbox', 'live']).default('sandbox'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** HTTP port of the api (and of the whole app in the embedded mode). */
  PORT: port.default(3000),
  /** Interface to listen on. */
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Where the embedded event store, the private Redis, the mail outbox and the app secret live. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** Redis for read models, sessions and queues. Unset: 127.0.0.1:6379, or a private redis-server. */
  REDIS_URL: z.string().url().optional(),
  /** KurrentDB connection string (kurrentdb://host:2113?tls=false). Unset: the embedded SQLite store. */
  EVENTSTORE_URL: z.string().min(1).optional(),
  /** SMTP server for e-mail (smtp://user:pass@host:port). Unset: .eml files under DATA_DIR/outbox. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('Quern <no-reply@quern.example>'),
  /** The address users reach Quern at; used in e-mailed links and for the CSRF origin check. */
  PUBLIC_URL: z.string().url().optional(),
  /** Key for reset-link MACs. Unset: generated once and kept in DATA_DIR/app-secret. */
  APP_SECRET: z.string().min(32).optional(),
  /**
   * The personal-data master key (ADR 042): 32 bytes as 64 hex digits or base64. Unset: generated
   * once and kept in DATA_DIR/personal-data-key. Change it only with `npm run rotate:personal-data-key`
   * (ADR 055), never by replacing it: it opens every account's key.
   */
  PERSONAL_DATA_KEY: z.string().min(32).optional(),
  /**
   * The Ed25519 seed monthly statements are signed with (ADR 090): 32 bytes as 64 hex digits or
   * base64. Unset: derived (HKDF) from the app secret. Changing it changes the public key at
   * GET /api/v1/statement-key and the bytes of every statement asked for afterwards.
   */
  STATEMENT_SIGNING_KEY: z
    .string()
    .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, 'must be 32 bytes as 64 hex digits or base64')
    .optional(),
  /** How long a session lasts without use, in hours. */
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  COMPANY_NAME: z.string().min(1).default('Quern'),
  /** Which millix network addresses belong to: mainnet addresses start with 1, testnet with m/n. */
  MILLIX_NETWORK: z.enum(['mainnet', 'testnet']).default('mainnet'),
  /** A millix node's HTTP API (http://host:port), its node id and signature. Unset: the simulated network. */
  MILLIX_NODE_URL: z.string().url().optional(),
  MILLIX_NODE_ID: z.string().min(1).optional(),
  MILLIX_NODE_SIGNATURE: z.string().min(1).optional(),
  /**
   * Where card and PayPal payments go (ADR 024): `local` (default) is the PayPal-compatible server
   * Quern runs itself at /paypal-local, so everything works offline; `sandbox` and `live` are PayPal.
   */
  PAYPAL_ENV: z.enum(['local', 'sandbox', 'live']).default('local'),
  /** PayPal REST app credentials; required for sandbox and live, fixed local ones otherwise. */
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  /** The id of the webhook registered with PayPal, which its signatures cover. */
  PAYPAL_WEBHOOK_ID: z.string().min(1).optional(),
  /** PayPal webhook deliveries one client address may make per minute (then 429); each costs a verify call to PayPal. */
  PAYPAL_WEBHOOKS_PER_MINUTE: z.coerce.number().int().min(1).max(100000).default(120),
  /** How long the capture call waits for the capture worker's answer before answering that it is still processing. */
  CAPTURE_WAIT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  /**
   * How long after a capture the buyer's page has to claim the credit itself (the spec's
   * POST /api/reserve/transfer) before the worker credits the order anyway (ADR 026).
   */
  PURCHASE_CREDIT_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  /**
   * Hours after its credit during which MLX bought with PayPal may pay checkouts and subscriptions
   * but may not be sent or paid out, so a card chargeback can still take it back (ADR 047); 0: no hold.
   */
  PURCHASE_HOLD_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 180)
    .default(72),
  /** How often the sweep reconciles orders approved but not captured, or captured but not credited. */
  PURCHASE_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(60_000),
  /** Simulated network: how long a transaction stays pending before it is stable. */
  MILLIX_CONFIRM_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(2000),
  /** Delay before a send is settled (lets people watch it pending; 0 settles at once). */
  SETTLEMENT_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  /** How long an external send may stay unconfirmed on the network before it is voided (ADR 010). */
  SETTLEMENT_WAIT_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(600_000),
  /** How long a deposit may stay unconfirmed on the network before it is rejected (ADR 010). */
  DEPOSIT_WAIT_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(3_600_000),
  /** First pause between two looks at a pending network transaction (it doubles up to 30 s). */
  NETWORK_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(2_000),
  /** Pause between two polls of the network's incoming feed when the last page was not full. */
  DEPOSIT_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(1_000),
  /** How long a read after the caller's own write waits for the read models before serving what is there. */
  READ_YOUR_WRITES_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** How often each background part reports to /healthz (missing three beats means it is down). */
  HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  /** MLX minted into genesis on first start (the millix supply is 9,000,000,000,000,000). */
  SUPPLY_MLX: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/)
    .default('9000000000000000'),
  /** MLX moved from genesis to the reserve (which sells MLX for USD) on first start. */
  RESERVE_FUNDING_MLX: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,15})$/)
    .default('1000000000000'),
  /** USD per MLX as a decimal (1 USD = 80,000 MLX by default); each change is recorded as an event. */
  EXCHANGE_RATE_USD_PER_MLX: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,8})(\.[0-9]{1,18})?$/)
    .default('0.0000125'),
  /** Absolute session lifetime in days, however much the session is used. */
  SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Which proxies' X-Forwarded-For to believe, so per-address limits see the client: unset or
   * `false` believes none (the default; a client could otherwise pick its own address), a number
   * is how many proxy hops sit in front of Quern, anything else is a comma-separated list of
   * proxy addresses or subnets (`loopback`, `10.0.0.0/8`).
   */
  TRUST_PROXY: z.string().trim().optional().transform(parseTrustProxy),
  /**
   * The built-in captcha's work (ADR 048): PBKDF2-SHA-256 iterations per try; a solver makes
   * about 30 tries, so the work per solved challenge grows linearly with it, for a bot as for a
   * person. The default costs about half a second in a mid-range phone's browser (bench/captcha.ts).
   */
  CAPTCHA_ITERATIONS: z.coerce.number().int().min(100).max(1_000_000).default(CAPTCHA_ITERATIONS_DEFAULT),
  /**
   * Bearer token that lets a monitor read /healthz's detail (which part is down and why) from
   * outside the machine. Unset: the detail is answered to loopback callers only.
   */
  HEALTH_TOKEN: z.string().min(32).optional(),
  /** Failed sign-ins from one address on one account before each further try must wait. */
  LOGIN_FREE_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  /** Failed sign-ins on one account, from any addresses, in 15 minutes before it counts as under attack. */
  LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(100000).default(50),
  /**
   * Wrong two-factor codes on one account, from any addresses, before its codes are locked for an
   * hour (only a recovery code signs in then, and the owner is mailed; ADR 045).
   */
  TWO_FACTOR_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(10),
  /** Failed sign-ins from one address, on any accounts, in 15 minutes before that address gets 429. */
  LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).max(100000).default(100),
  /** The support mailbox: contact and support messages are mailed here, reply-to the sender. */
  SUPPORT_EMAIL: z.email().default('support@quern.example'),
  /** reCAPTCHA instead of the built-in ALTCHA proof of work, when both the site key and the secret are set. */
  RECAPTCHA_SITE_KEY: z.string().min(1).optional(),
  RECAPTCHA_SECRET: z.string().min(1).optional(),
  /** Where reCAPTCHA responses are checked (Google's siteverify; tests point it at a stand-in). */
  RECAPTCHA_VERIFY_URL: z.string().url().default('https://www.google.com/recaptcha/api/siteverify'),
  /** Contact and support messages one account, and one client address, may send per hour. */
  CONTACT_MESSAGES_PER_USER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  CONTACT_MESSAGES_PER_IP_HOUR: z.coerce.number().int().min(1).max(10000).default(20),
  /** Requests one API Direct key may make to /api/v1 per minute before it gets 429 with Retry-After. */
  API_KEY_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(100000).default(120),
  /**
   * Merchant lookups of the checkout popup (checkout.merchant: who a username or e-mail is) one
   * account, over all its sessions, and one client address may make per hour, then 429 (ADR 043).
   */
  CHECKOUT_LOOKUPS_PER_USER_HOUR: z.coerce.number().int().min(1).max(100000).default(60),
  CHECKOUT_LOOKUPS_PER_IP_HOUR: z.coerce.number().int().min(1).max(100000).default(300),
  /**
   * Invoices the public pay page of payment links (`/pay/{slug}`, ADR 084) may make for one client
   * address per hour, over all links, then 429: nobody floods a merchant with invoices.
   */
  PAYMENT_LINK_INVOICES_PER_IP_HOUR: z.coerce.number().int().min(1).max(100000).default(60),
  /** Registrations allowed per IP in an hour. */
  REGISTRATIONS_PER_IP_HOUR: z.coerce.number().int().min(1).max(10000).default(10),
  /** Password-reset requests per IP per 15 minutes: each sends an e-mail, so a script cannot make Quern mail-bomb an inbox. */
  RESET_REQUESTS_PER_IP: z.coerce.number().int().min(1).max(10000).default(5),
  /**
   * Webhook endpoints on loopback, private, link-local and other non-public addresses are refused
   * (SSRF defence, ADR 035) unless this is `true`: for tests and for self-hosted setups whose
   * receivers live on the same private network.
   */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** How long a receiver has to answer 2xx before the attempt counts as failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(10_000),
  /**
   * The pauses before each webhook retry, in ms, comma-separated (1 to 20, each at most a day).
   * Unset: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (about three days in all).
   */
  WEBHOOK_RETRY_SCHEDULE_MS: z
    .string()
    .regex(/^[0-9]{1,8}(,[0-9]{1,8}){0,19}$/, 'a comma-separated list of 1 to 20 whole numbers of ms')
    .optional()
    .transform((value) => value?.split(',').map(Number)),

  // --- Sandbox and live modes (ADR 049) ---
  /**
   * PayPal's REST base URL instead of the one PAYPAL_ENV names (https://api-m.paypal.com for live,
   * https://api-m.sandbox.paypal.com for sandbox): a regional host, an egress proxy, or a stub in
   * tests. In live it must be https, or http on loopback (api/src/modes/live-settings.ts).
   */
  PAYPAL_API_URL: z.string().url().optional(),

  // --- Metrics (ADR 053) ---
  /**
   * Port of a separate HTTP server answering only GET /metrics (Prometheus text), one per process:
   * the only way to scrape the projections and workers processes of a split deployment. Unset:
   * no such server. 0 picks a free port (tests).
   */
  METRICS_PORT: port.optional(),
  /** Interface of the metrics server; loopback unless a scraper elsewhere must reach it (then set METRICS_TOKEN too). */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Bearer token for /metrics: with it the main app serves /metrics to `Authorization: Bearer
   * <token>` (and the METRICS_PORT server asks for it too). Unset: the main app has no /metrics.
   */
  METRICS_TOKEN: z.string().min(32, 'at least 32 characters (e.g. `openssl rand -hex 32`)').optional(),
  // --- end Metrics ---

  // --- Logs (ADR 052) ---
  /**
   * How much the JSON log lines on stdout say: `info` (default) has the start-up line, one access
   * line per request and the background parts' notes; `warn` or `error` only trouble; `debug` adds
   * the /healthz polls. Never personal data or secrets at any level.
   */
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),

  // Billing that nobody has to watch (ADR 057).
  /**
   * How often the renewal sweep re-queues subscription renewals whose jobs BullMQ gave up on
   * (Quern failed, not the subscriber's funds): without it such a renewal would wait for a person.
   */
  RENEWAL_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(60_000),
});

/** TRUST_PROXY as Express's 'trust proxy' setting. */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (/^[0-9]{1,2}$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

export type Config = z.infer<typeof configSchema> & { publicUrl: string };

/**
 * `modeRules: false` parses only: for tools that read the log and start nothing (the audit), and
 * for `npm run doctor`, which reports the mode's faults as one of its checks.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: { modeRules?: boolean } = {}): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  // The mode's rules (ADR 049): every fault in one message, before anything is opened.
  const faults = options.modeRules === false ? [] : modeFaults(config);
  if (faults.length > 0) throw new Error(formatModeFaults(config.QUERN_MODE, faults));
  return { ...config, publicUrl: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '') };
}
