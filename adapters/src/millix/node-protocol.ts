/**
 * The millix node HTTP API as Quern uses it: endpoint ids, request payloads, and tolerant
 * readers for the answers. Pure (no I/O), so the adapter (node-http.ts) and the fake node used by
 * the tests (fake-node-server.ts) share one description of the protocol.
 *
 * Every call is `${baseUrl}/api/${node_id}/${node_signature}/${endpoint_id}` (millix-node
 * `api/endpoint.js`, which registers each endpoint for GET and POST). Parameters are p0, p1, ...:
 * query parameters on GET (an object is JSON-encoded, then URL-encoded; the handler JSON.parses
 * it), or a JSON body `{ "p0": ... }` on POST. Ids and shapes were read in millix/millix-node:
 * `core/config/api.json` (the endpoint list) and each `api/<endpoint_id>/index.js`.
 */
import { z } from 'zod';
import { parseAddress } from '@quern/core/wallet';
import { isMillixTransactionId } from './chash.js';
import type { IncomingTransaction, MillixTransactionStatus } from './port.js';

export const NODE_ENDPOINT = {
  /** get_session (api/OBexeX0f0MsnL1S3/index.js): the node's active wallet. */
  getSession: 'OBexeX0f0MsnL1S3',
  /**
   * send_transaction_from_wallet (api/XPzc85T3reYmGro1/index.js): p0 = { transaction_output_list,
   * transaction_output_fee }; the node picks inputs from its wallet, signs and broadcasts.
   */
  sendTransactionFromWallet: 'XPzc85T3reYmGro1',
  /** get_transaction_extended (api/IBHgAmydZbmTUAe8/index.js): p0 = transaction_id, p1 = shard_id. */
  getTransactionExtended: 'IBHgAmydZbmTUAe8',
  /** get_address_balance (api/zLsiAkocn90e3K6R/index.js): p0 = address; answers { stable, unstable }. */
  getAddressBalance: 'zLsiAkocn90e3K6R',
  /**
   * list_transaction_output (api/FDLyQ5uo5t7jltiQ/index.js): p1 = date_begin, p3 =
   * address_key_identifier, p13 = order_by, p14 = record_limit (default 1000).
   */
  listTransactionOutput: 'FDLyQ5uo5t7jltiQ',
} as const;

/** The genesis shard (core/genesis/genesis-config.js); new transactions all live in it. */
export const MAINNET_GENESIS_SHARD_ID = 'qGuUgMMVmaCvqrvoWG6zARjkrujGMpzJmpNhBgz1y3RjBG7ZR';
export const TESTNET_GENESIS_SHARD_ID = 'UqnsGsRQGtxK3z5yURxt23MX2A7u5wAsMmTvYqrzqACD2W4ne';

/** `fee_type` of the default fee, as core/wallet/wallet.js builds its own outputs' fee. */
export const FEE_TYPE_DEFAULT = 'transaction_fee_default';
/** millix `transaction.status` (scripts/initialize-millix-shard-sqlite3.sql): 1 default, 2 prune, 3 invalid. */
export const TRANSACTION_STATUS_INVALID = 3;

/** The p0 of send_transaction_from_wallet for one payee. Amounts are JSON numbers (all ≤ 9e15 < 2^53). */
export function sendPayload(toAddress: string, amountMlx: bigint, feeMlx: bigint) {
  const parsed = parseAddress(toAddress);
  if (!parsed.ok) throw new TypeError(`sendPayload: not a millix address: ${toAddress}`);
  return {
    transaction_output_list: [
      {
        address_base: parsed.base,
        address_version: parsed.version,
        address_key_identifier: parsed.keyIdentifier,
        amount: Number(amountMlx),
      },
    ],
    transaction_output_fee: { fee_type: FEE_TYPE_DEFAULT, amount: Number(feeMlx) },
  };
}

// Tolerant readers: unknown fields are dropped; a missing or mistyped field the adapter needs
// refuses the whole answer (the adapter then reports the node `unavailable`, never guesses).
const amount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** SQLite flags arrive as 0/1; accept booleans too. */
const flag = z.union([z.number(), z.boolean(), z.null()]).transform((value) => value === true || value === 1);
/** Unix seconds (what the tables store) or a date string (what a Date serialises to). */
const dateSeconds = z.union([z.number().int().min(0), z.string().min(1).max(40)]).transform((value, context) => {
  const seconds = typeof value === 'number' ? value : Math.floor(Date.parse(value) / 1000);
  if (!Number.isFinite(seconds)) {
    context.addIssue({ code: 'custom', message: 'not a date' });
    return z.NEVER;
  }
  return seconds;
});
const id = z.string().min(1).max(128);
/** Fee outputs come first with negative positions (wallet-utils.signTransaction: idx - fee count). */
const outputPosition = z.number().int().min(-10_000).max(10_000);
const addressText = z.string().min(1).max(128);

export const failBodySchema = z.object({ api_status: z.string().startsWith('fail'), api_message: z.unknown().optional() });

export const sessionBodySchema = z.object({
  api_status: z.literal('success'),
  wallet: z.object({ id: z.string().optional(), address: addressText, address_key_identifier: z.string().min(1).max(64) }),
});

const sentOutputSchema = z.object({
  address_base: z.string().optional(),
  address_version: z.string().optional(),
  address_key_identifier: z.string().optional(),
  amount: amount.optional(),
});
const sentTransactionSchema = z.object({
  transaction_id: id,
  shard_id: id,
  transaction_output_list: z.array(sentOutputSchema).max(1000).optional(),
});
/** wallet.addTransaction resolves the list of transactions it made (usually one). */
export const sendSuccessBodySchema = z.object({
  api_status: z.literal('success'),
  transaction: z.union([sentTransactionSchema, z.array(sentTransactionSchema).min(1).max(100)]),
});

const extendedInputSchema = z.object({ address: addressText.nullish(), address_key_identifier: z.string().max(64).nullish() });
const extendedOutputSchema = z.object({
  output_position: outputPosition,
  address: addressText,
  amount,
  is_double_spend: flag.optional(),
});
export const extendedTransactionSchema = z.object({
  transaction_id: id,
  shard_id: id,
  transaction_date: dateSeconds,
  is_stable: flag,
  status: z.number().int(),
  transaction_input_list: z.array(extendedInputSchema).max(10_000),
  transaction_output_list: z.array(extendedOutputSchema).max(10_000),
});
export type ExtendedTransaction = z.infer<typeof extendedTransactionSchema>;

export const balanceBodySchema = z.object({ stable: amount, unstable: amount });

export const outputRowSchema = z.object({
  transaction_id: id,
  shard_id: id,
  output_position: outputPosition,
  address: addressText,
  amount,
  transaction_date: dateSeconds,
});
export type OutputRow = z.infer<typeof outputRowSchema>;
export const outputRowsSchema = z.array(outputRowSchema).max(10_000);

/** What a transaction's extended record says about it, in the port's terms. */
export function statusOfExtended(transaction: ExtendedTransaction): MillixTransactionStatus {
  if (transaction.status === TRANSACTION_STATUS_INVALID) return 'rejected';
  if (transaction.transaction_output_list.some((output) => output.is_double_spend === true)) return 'rejected';
  return transaction.is_stable ? 'stable' : 'pending';
}

/** Every output of a transaction, as the port's incoming records (the consumer keeps its own). */
export function incomingOfExtended(transaction: ExtendedTransaction): IncomingTransaction[] {
  const fromAddress = transaction.transaction_input_list.find((input) => input.address)?.address ?? '';
  const observedAt = new Date(transaction.transaction_date * 1000).toISOString();
  return transaction.transaction_output_list.map((output) => ({
    transactionHash: transaction.transaction_id,
    outputPosition: output.output_position,
    toAddress: output.address,
    fromAddress,
    amountMlx: BigInt(output.amount),
    observedAt,
  }));
}

/**
 * The node's notification of a transaction that touches its wallet (core/wallet/wallet.js,
 * notifyExternalAPI): `GET <EXTERNAL_API_NOTIFICATION>?p0=<transaction_id>&p1=<status>`, sent
 * for transactions with an output to the node's wallet (or to a key identifier listed in its
 * EXTERNAL_WALLET_KEY_IDENTIFIER config). The status observed in the source is
 * `transaction_new`. It carries no amounts: the handler fetches the transaction from the node
 * (MillixNodeNetwork.incomingFromNotification), so a forged notification cannot invent a deposit.
 */
export interface NodeNotification {
  transactionId: string;
  status: string;
}

const NOTIFICATION_STATUS_PATTERN = /^[a-z_:]{1,64}$/;

/**
 * Reads a notification from the webhook's query parameters (Express `req.query`, or a
 * URLSearchParams). Returns an Error (never throws) for anything that is not one, so the route
 * can answer 400 without a try/catch.
 */
export function parseNodeNotification(query: unknown): NodeNotification | Error {
  const get = (name: string): unknown =>
    query instanceof URLSearchParams
      ? (query.get(name) ?? undefined)
      : typeof query === 'object' && query !== null
        ? (query as Record<string, unknown>)[name]
        : undefined;
  const transactionId = get('p0');
  const status = get('p1');
  if (typeof transactionId !== 'string' || !isMillixTransactionId(transactionId)) return new Error('p0 must be a millix transaction id');
  if (typeof status !== 'string' || !NOTIFICATION_STATUS_PATTERN.test(status))
    return new Error('p1 must be a notification status such as transaction_new');
  return { transactionId, status };
}
