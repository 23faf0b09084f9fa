/**
 * The rules of the two modes (ADR 049), as one pure function over the parsed configuration: every
 * setting that would let a live Quern run on a stand-in or leak real money or data, and every
 * mix that would let a sandbox Quern credit real MLX or take real money for test MLX. All faults
 * are returned together, so an operator fixes the whole list in one pass instead of one restart
 * per setting.
 */
import { isAbsolute } from 'node:path';
import { parseMasterKey } from '@quern/adapters/personal-data';
import type { QuernMode } from '@quern/core';
import { isLoopbackHost, temporaryFolderOf, temporaryFolders } from '@quern/adapters/runtime';
import { readEventStoreUrl } from './eventstore-url.js';

/** The settings the rules read; the parsed configuration has them all. */
export interface ModeSettings {
  QUERN_MODE: QuernMode;
  DATA_DIR: string;
  EVENTSTORE_URL?: string | undefined;
  SMTP_URL?: string | undefined;
  PUBLIC_URL?: string | undefined;
  APP_SECRET?: string | undefined;
  PERSONAL_DATA_KEY?: string | undefined;
  MILLIX_NETWORK: 'mainnet' | 'testnet';
  MILLIX_NODE_URL?: string | undefined;
  MILLIX_NODE_ID?: string | undefined;
  MILLIX_NODE_SIGNATURE?: string | undefined;
  PAYPAL_ENV: 'local' | 'sandbox' | 'live';
  PAYPAL_API_URL?: string | undefined;
  PAYPAL_CLIENT_ID?: string | undefined;
  PAYPAL_CLIENT_SECRET?: string | undefined;
  PAYPAL_WEBHOOK_ID?: string | undefined;
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: boolean;
  RECAPTCHA_VERIFY_URL: string;
}

export interface ModeFault {
  /** The environment variable at fault. */
  setting: string;
  /** What is wrong with it, in this mode. */
  problem: string;
  /** What to set instead. */
  fix: string;
}

/** Google's reCAPTCHA verification endpoints; any other URL could be a server that says yes to every bot. */
const RECAPTCHA_VERIFY_URLS = new Set([
  'https://www.google.com/recaptcha/api/siteverify',
  'https://www.recaptcha.net/recaptcha/api/siteverify',
]);

const PAYPAL_LIVE_HOSTS = new Set(['api-m.paypal.com', 'api.paypal.com']);
const PAYPAL_SANDBOX_HOSTS = new Set(['api-m.sandbox.paypal.com', 'api.sandbox.paypal.com']);

/** Where temporary folders live; a test passes its own. */
export interface ModeEnvironment {
  tmpDirs: string[];
}

const defaultEnvironment = (): ModeEnvironment => ({ tmpDirs: temporaryFolders() });

/** A URL's host names this machine: traffic to it never leaves it, so plain text is acceptable. */
export function isLoopbackUrl(url: URL): boolean {
  return isLoopbackHost(url.hostname);
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** Every fault of `settings` in its mode; empty when Quern may start. */
export function modeFaults(settings: ModeSettings, environment: ModeEnvironment = defaultEnvironment()): ModeFault[] {
  return settings.QUERN_MODE === 'live' ? liveFaults(settings, environment) : sandboxFaults(settings);
}

/** Sandbox: stand-ins welcome, but nothing that moves real money for test money. */
function sandboxFaults(s: ModeSettings): ModeFault[] {
  const faults: ModeFault[] = [];
  if (s.PAYPAL_ENV === 'live') {
    faults.push({
      setting: 'PAYPAL_ENV',
      problem: 'is live in sandbox mode: real card and PayPal payments would buy test MLX',
      fix: 'set PAYPAL_ENV=sandbox (or local) for test payments, or QUERN_MODE=live with every live setting',
    });
  }
  if (s.MILLIX_NODE_URL && s.MILLIX_NETWORK === 'mainnet') {
    faults.push({
      setting: 'MILLIX_NODE_URL',
      problem: 'names a mainnet millix node (MILLIX_NETWORK=mainnet) in sandbox mode: test payments would credit and send real MLX',
      fix: 'unset MILLIX_NODE_URL to use the simulated network, point it at a testnet node with MILLIX_NETWORK=testnet, or set QUERN_MODE=live',
    });
  }
  const paypalApi = s.PAYPAL_API_URL ? parseUrl(s.PAYPAL_API_URL) : undefined;
  if (paypalApi && PAYPAL_LIVE_HOSTS.has(paypalApi.hostname)) {
    faults.push({
      setting: 'PAYPAL_API_URL',
      problem: `names PayPal's live API (${paypalApi.hostname}) in sandbox mode: test purchases would take real money`,
      fix: 'unset PAYPAL_API_URL (PAYPAL_ENV=sandbox then uses https://api-m.sandbox.paypal.com)',
    });
  }
  faults.push(...paypalApiUrlMisuse(s));
  return faults;
}

/** PAYPAL_API_URL overrides PayPal's host; the local stand-in is Quern's own and has no host to override. */
function paypalApiUrlMisuse(s: ModeSettings): ModeFault[] {
  if (!s.PAYPAL_API_URL || s.PAYPAL_ENV !== 'local') return [];
  return [
    {
      setting: 'PAYPAL_API_URL',
      problem: 'is set with PAYPAL_ENV=local, whose server Quern serves itself at /paypal-local',
      fix: 'unset PAYPAL_API_URL, or set PAYPAL_ENV=sandbox or live',
    },
  ];
}

function liveFaults(s: ModeSettings, environment: ModeEnvironment): ModeFault[] {
  const faults: ModeFault[] = [];
  const fault = (setting: string, problem: string, fix: string) => faults.push({ setting, problem, fix });

  // The millix network: a real node, on mainnet, reached privately.
  if (!s.MILLIX_NODE_URL) {
    fault(
      'MILLIX_NODE_URL',
      'is not set: the simulated millix network is sandbox-only',
      "set it to your millix node's HTTP API (https://node:5500, or http on loopback)",
    );
  } else {
    const url = parseUrl(s.MILLIX_NODE_URL);
    if (url && url.protocol !== 'https:' && !isLoopbackUrl(url)) {
      fault(
        'MILLIX_NODE_URL',
        `is plain ${url.protocol.replace(':', '')} to ${url.hostname}: the node's identity and signature would cross the network readable`,
        'use https://, or run the node on this machine (http://127.0.0.1:<port>)',
      );
    }
  }
  if (!s.MILLIX_NODE_ID)
    fault(
      'MILLIX_NODE_ID',
      'is not set: live mode needs the millix node’s identity',
      'set it to the node id of the node at MILLIX_NODE_URL',
    );
  if (!s.MILLIX_NODE_SIGNATURE)
    fault(
      'MILLIX_NODE_SIGNATURE',
      'is not set: live mode needs the millix node’s signature',
      'set it to the node signature of the node at MILLIX_NODE_URL',
    );
  if (s.MILLIX_NETWORK === 'testnet')
    fault('MILLIX_NETWORK', 'is testnet in live mode: testnet MLX is test money', 'set MILLIX_NETWORK=mainnet (or QUERN_MODE=sandbox)');

  // PayPal: the live service, its credentials, its webhook id.
  if (s.PAYPAL_ENV !== 'live') {
    const what =
      s.PAYPAL_ENV === 'local' ? 'the local PayPal stand-in (any buyer can approve without paying)' : "PayPal's sandbox (test money)";
    fault('PAYPAL_ENV', `is ${s.PAYPAL_ENV} in live mode: ${what} is sandbox-only`, 'set PAYPAL_ENV=live');
  }
  if (!s.PAYPAL_CLIENT_ID)
    fault(
      'PAYPAL_CLIENT_ID',
      'is not set',
      "set it to your live PayPal REST app's client id (developer.paypal.com, Apps & Credentials, Live)",
    );
  if (!s.PAYPAL_CLIENT_SECRET) fault('PAYPAL_CLIENT_SECRET', 'is not set', "set it to your live PayPal REST app's secret");
  if (!s.PAYPAL_WEBHOOK_ID)
    fault(
      'PAYPAL_WEBHOOK_ID',
      'is not set: PayPal webhooks could not be verified',
      'register <PUBLIC_URL>/api/paypal/webhooks as a webhook of the live app and set its id',
    );
  if (s.PAYPAL_API_URL) {
    const url = parseUrl(s.PAYPAL_API_URL);
    if (url && url.protocol !== 'https:' && !isLoopbackUrl(url)) {
      fault(
        'PAYPAL_API_URL',
        `is plain ${url.protocol.replace(':', '')} to ${url.hostname}: PayPal credentials would cross the network readable`,
        'unset it (https://api-m.paypal.com is used) or use https://',
      );
    } else if (url && PAYPAL_SANDBOX_HOSTS.has(url.hostname)) {
      fault(
        'PAYPAL_API_URL',
        `names PayPal's sandbox (${url.hostname}) in live mode: purchases would be paid with test money`,
        'unset it (https://api-m.paypal.com is used)',
      );
    }
  }

  // Mail: a real server, encrypted unless on this machine.
  if (!s.SMTP_URL) {
    fault(
      'SMTP_URL',
      'is not set: mail would only be written to DATA_DIR/outbox and never reach anyone',
      'set it to your mail server (smtps://user:pass@host:465, or smtp://…:587?requireTLS=true)',
    );
  } else {
    const url = parseUrl(s.SMTP_URL);
    if (url && url.protocol !== 'smtps:' && url.protocol !== 'smtp:') {
      fault(
        'SMTP_URL',
        `has the scheme ${url.protocol} (not smtp: or smtps:)`,
        'use smtps://user:pass@host:465 or smtp://user:pass@host:587?requireTLS=true',
      );
    } else if (url && url.protocol === 'smtp:' && !isLoopbackUrl(url) && url.searchParams.get('requireTLS') !== 'true') {
      fault(
        'SMTP_URL',
        `is plain smtp to ${url.hostname} without requireTLS: sign-in codes and reset links could be sent unencrypted`,
        'use smtps://…:465, or add ?requireTLS=true so STARTTLS is required',
      );
    }
  }

  // The web address, the secrets and where the data lives.
  const publicUrl = s.PUBLIC_URL ? parseUrl(s.PUBLIC_URL) : undefined;
  if (publicUrl?.protocol !== 'https:') {
    fault(
      'PUBLIC_URL',
      s.PUBLIC_URL ? `is ${s.PUBLIC_URL}, not https: session cookies and passwords would cross the network readable` : 'is not set',
      'set it to the https:// address users reach Quern at (https://pay.example.com)',
    );
  }
  if (!s.APP_SECRET)
    fault(
      'APP_SECRET',
      'is not set: a generated secret kept in DATA_DIR is lost with the folder and is not in your secret store',
      'set it to 64 random hex digits (openssl rand -hex 32) kept in your secret store',
    );
  if (!s.PERSONAL_DATA_KEY) {
    fault(
      'PERSONAL_DATA_KEY',
      'is not set: a generated key kept in DATA_DIR is lost with the folder, and every name and e-mail with it',
      'set it to 64 random hex digits (openssl rand -hex 32) kept in your secret store and backed up',
    );
  } else {
    try {
      parseMasterKey(s.PERSONAL_DATA_KEY);
    } catch {
      fault('PERSONAL_DATA_KEY', 'is not 32 bytes', 'set it to 64 hex digits or base64 of 32 bytes (openssl rand -hex 32)');
    }
  }
  // DATA_DIR holds the key vault and the node's send journal even with KurrentDB, so it must last.
  if (!isAbsolute(s.DATA_DIR)) {
    fault(
      'DATA_DIR',
      `is the relative path ${s.DATA_DIR}: where the data lives would depend on the folder Quern was started from`,
      'set it to an absolute path on durable, backed-up storage (/var/lib/quern)',
    );
  } else {
    const tmp = temporaryFolderOf(s.DATA_DIR, environment.tmpDirs);
    if (tmp)
      fault(
        'DATA_DIR',
        `is under the temporary folder ${tmp}, which the system may empty at any time`,
        'set it to an absolute path on durable, backed-up storage (/var/lib/quern)',
      );
  }
  if (s.EVENTSTORE_URL) {
    const fault = eventStoreFault(s.EVENTSTORE_URL);
    if (fault) faults.push(fault);
  }

  // Test conveniences that open a hole in live.
  if (s.WEBHOOK_ALLOW_PRIVATE_NETWORKS) {
    fault(
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
      'is true in live mode: any merchant could make Quern call private addresses (Redis, KurrentDB, cloud metadata)',
      'unset it (false)',
    );
  }
  if (!RECAPTCHA_VERIFY_URLS.has(s.RECAPTCHA_VERIFY_URL)) {
    fault(
      'RECAPTCHA_VERIFY_URL',
      `is ${s.RECAPTCHA_VERIFY_URL}, not Google's: a stand-in that accepts every answer lets bots through`,
      'unset it (https://www.google.com/recaptcha/api/siteverify)',
    );
  }
  return faults;
}

/** KurrentDB without TLS, or with TLS but no certificate check, is acceptable only when every node is on this machine. */
function eventStoreFault(url: string): ModeFault | undefined {
  const connection = readEventStoreUrl(url);
  if (!connection) {
    return {
      setting: 'EVENTSTORE_URL',
      problem: 'cannot be read as a KurrentDB connection string',
      fix: 'write it as kurrentdb://user:password@host:2113[,host:2113…][?option=value&…]',
    };
  }
  const plain = connection.options.get('tls') === 'false';
  const unverified = connection.options.get('tlsverifycert') === 'false';
  if (!plain && !unverified) return undefined;
  const remote = connection.discover ? ['the nodes the cluster gossip names'] : connection.hosts.filter((host) => !isLoopbackHost(host));
  if (remote.length === 0) return undefined;
  return plain
    ? {
        setting: 'EVENTSTORE_URL',
        problem: `has tls=false to ${remote.join(', ')}: the whole ledger would cross the network readable`,
        fix: 'connect with TLS (tls=true, the default) and KurrentDB credentials',
      }
    : {
        setting: 'EVENTSTORE_URL',
        problem: `has tlsVerifyCert=false to ${remote.join(', ')}: anyone on the way could pose as KurrentDB and read or rewrite the ledger`,
        fix: "remove tlsVerifyCert=false and give the cluster's CA with tlsCAFile=<path to ca.crt>",
      };
}

/** The one message an operator reads when Quern refuses to start. */
export function formatModeFaults(mode: QuernMode, faults: readonly ModeFault[]): string {
  const header =
    mode === 'live'
      ? `QUERN_MODE=live refuses to start: ${faults.length} setting(s) to fix (QUERN_MODE=sandbox runs on test money instead):`
      : `QUERN_MODE=sandbox refuses to start: ${faults.length} setting(s) would move real money for test money:`;
  return [header, ...faults.map((f) => formatFault(f, '  '))].join('\n');
}

/** One fault as an operator reads it, its fix on the next line; `indent` sets it into the surrounding report. */
export function formatFault(fault: ModeFault, indent: string): string {
  return `${indent}- ${fault.setting} ${fault.problem}.\n${indent}  Fix: ${fault.fix}.`;
}
