/**
 * The dev faucet (`npm run faucet -- --to <username|email|address> --amount N`): deposits test
 * MLX through the simulated network, as if someone outside Quern had paid the address. It works
 * while Quern runs because it only writes the simulated network's SQLite file (WAL) and only
 * reads the event log; Quern's deposit watcher then sees the deposit, pending until the
 * confirmation delay has passed. The entry point is api/src/bin/faucet.ts.
 *
 * Operator-facing text stays in English here: this is a developer tool, not the product UI.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { EventStore } from '@quern/core';
import { errorText } from '@quern/core/i18n';
import {
  evolveIdentityKey,
  identityKeyStream,
  normalizeEmail,
  normalizeUsername,
  toIdentityKeyEvent,
  usernamePattern,
  type IdentityKeyKind,
  type IdentityKeyState,
} from '@quern/core/identity';
import { formatMlx, parseAddress, parseMlxAmount, toWalletEvent, walletStream } from '@quern/core/wallet';
import { openEventStore } from '../eventstore/index.js';
import { simulatedNetworkFile } from './index.js';
import { CONFIRM_DELAY_MS_MAX, DEFAULT_CONFIRM_DELAY_MS, openSimulatedNetwork } from './simulated.js';

export const FAUCET_USAGE = `Deposits test MLX into a Quern wallet through the simulated millix network.

Usage: npm run faucet -- --to <username|email|address> --amount <MLX>

  --to      a Quern username, a Quern user's e-mail, or any millix address
  --amount  whole MLX; thousands separators are allowed ("1,000,000")

Environment: DATA_DIR (default ./data), MILLIX_CONFIRM_DELAY_MS (default ${DEFAULT_CONFIRM_DELAY_MS}),
EVENTSTORE_URL (when Quern uses KurrentDB).`;

/** Exit codes: 0 deposited, 1 something failed (the event store did not answer...), 2 bad input. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Input the operator must correct: printed without a stack, exit code 2. */
export class FaucetInputError extends Error {}

export interface FaucetArgs {
  to: string;
  amountMlx: bigint;
}

/** Longest --to read: an e-mail address is at most 254 characters. */
const RECIPIENT_TEXT_LENGTH_MAX = 254;

export function parseFaucetArgs(argv: readonly string[]): FaucetArgs | 'help' {
  let values: { to?: string | undefined; amount?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { to: { type: 'string' }, amount: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new FaucetInputError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  const to = values.to?.trim() ?? '';
  if (to.length === 0) throw new FaucetInputError('--to is required: a username, an e-mail address or a millix address.');
  if (to.length > RECIPIENT_TEXT_LENGTH_MAX) throw new FaucetInputError(`--to is longer than ${RECIPIENT_TEXT_LENGTH_MAX} characters.`);
  if (values.amount === undefined) throw new FaucetInputError('--amount is required: a whole number of MLX, e.g. --amount 1,000,000.');
  const amount = parseMlxAmount(values.amount);
  if (!amount.ok) throw new FaucetInputError(`--amount ${JSON.stringify(values.amount)}: ${errorText(amount.messageKey)}`);
  return { to, amountMlx: amount.amountMlx };
}

export type Recipient = { kind: 'address'; address: string } | { kind: 'user'; key: IdentityKeyKind; value: string };

/** What --to names, before anything is looked up. */
export function classifyRecipient(to: string): Recipient {
  const address = parseAddress(to);
  if (address.ok) return { kind: 'address', address: to };
  if (to.includes('@')) return { kind: 'user', key: 'email', value: normalizeEmail(to) };
  if (usernamePattern.test(to) && to.length <= 32) return { kind: 'user', key: 'username', value: normalizeUsername(to) };
  throw new FaucetInputError(
    `--to ${JSON.stringify(to)} is neither a username, an e-mail address nor a valid millix address (${address.reason}).`,
  );
}

/** Read with core's schema: an event that is not a well-formed claim or release moves no key. */
function holderOf(events: ReadonlyArray<{ type: string; data: Record<string, unknown> }>): string | undefined {
  let state: IdentityKeyState = {};
  for (const recorded of events) {
    const event = toIdentityKeyEvent(recorded);
    if (event) state = evolveIdentityKey(state, event);
  }
  return state.holderUserId;
}

/** The address of the Quern wallet of the user holding a username or e-mail. */
export async function resolveUserAddress(
  store: EventStore,
  key: IdentityKeyKind,
  value: string,
): Promise<{ userId: string; address: string }> {
  const userId = holderOf(await store.readStream(identityKeyStream(key, value)));
  if (!userId) throw new FaucetInputError(`No Quern user has the ${key === 'email' ? 'e-mail address' : key} "${value}".`);
  // WalletOpened is the first event of a wallet stream; one event is all that is needed.
  const [first] = await store.readStream(walletStream(userId), { maxCount: 1 });
  const opened = first ? toWalletEvent(first) : undefined;
  if (opened?.type !== 'WalletOpened') throw new FaucetInputError(`The user "${value}" has no wallet yet.`);
  return { userId, address: opened.data.address };
}

const envSchema = z.object({
  DATA_DIR: z.string().min(1).default('./data'),
  MILLIX_CONFIRM_DELAY_MS: z.coerce.number().int().min(0).max(CONFIRM_DELAY_MS_MAX).default(DEFAULT_CONFIRM_DELAY_MS),
  EVENTSTORE_URL: z.string().min(1).optional(),
  MILLIX_NODE_URL: z.string().optional(),
});

export interface FaucetOutput {
  log(line: string): void;
  error(line: string): void;
}

/** Runs the faucet; resolves to the process exit code. */
export async function runFaucet(argv: readonly string[], env: NodeJS.ProcessEnv, out: FaucetOutput): Promise<number> {
  try {
    // Live mode has no stand-ins (ADR 049): the faucet does not exist there, whatever else is set.
    if (env.QUERN_MODE === 'live') {
      throw new FaucetInputError(
        'QUERN_MODE=live: the faucet does not exist in live mode. It only feeds test MLX to the simulated network of a sandbox Quern; real MLX arrives by deposits from the millix network.',
      );
    }
    const args = parseFaucetArgs(argv);
    if (args === 'help') {
      out.log(FAUCET_USAGE);
      return EXIT_OK;
    }
    const parsedEnv = envSchema.safeParse(env);
    if (!parsedEnv.success) {
      throw new FaucetInputError(parsedEnv.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
    }
    const config = parsedEnv.data;
    if (config.MILLIX_NODE_URL) {
      throw new FaucetInputError('MILLIX_NODE_URL is set: Quern uses a real millix node, and the faucet only feeds the simulated network.');
    }
    const dataDir = resolve(config.DATA_DIR);
    const recipient = classifyRecipient(args.to);
    let address: string;
    let label: string;
    if (recipient.kind === 'address') {
      address = recipient.address;
      label = address;
    } else {
      const store = openEventStore({
        eventStoreUrl: config.EVENTSTORE_URL,
        dataDir,
        personalDataKey: process.env.PERSONAL_DATA_KEY || undefined,
      });
      try {
        ({ address } = await resolveUserAddress(store, recipient.key, recipient.value));
      } finally {
        await store.close();
      }
      label = `${recipient.value} (${address})`;
    }
    const network = openSimulatedNetwork({ file: simulatedNetworkFile(dataDir), confirmDelayMs: config.MILLIX_CONFIRM_DELAY_MS });
    try {
      const { transactionHash } = await network.deposit(address, args.amountMlx);
      out.log(`Deposited ${formatMlx(args.amountMlx, 'en')} MLX to ${label}.`);
      out.log(`Transaction ${transactionHash}: pending; the simulated network confirms it after ${config.MILLIX_CONFIRM_DELAY_MS} ms.`);
      return EXIT_OK;
    } finally {
      await network.close();
    }
  } catch (error) {
    if (error instanceof FaucetInputError) {
      out.error(error.message);
      out.error('Run with --help for usage.');
      return EXIT_USAGE;
    }
    out.error(`The faucet failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILURE;
  }
}
