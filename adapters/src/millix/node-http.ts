/**
 * The millix-network port over a millix node's HTTP API (millix/millix-node). Quern's node runs
 * an active wallet (Quern's custodial hot wallet): external sends are paid from it, and deposits
 * are transactions with an output to a key identifier the node watches. Protocol details and
 * their sources are in node-protocol.ts; what is verified and what is not, in ADR 008.
 *
 * Every call is bounded by `timeoutMs` and never retried here (node-client.ts). `send` is made
 * idempotent by a local journal (node-journal.ts): an attempt whose answer was lost is looked
 * for on the node before anything is sent again.
 */
import Database from 'better-sqlite3';
import { parseAddress } from '@quern/core/wallet';
import { isMillixTransactionId } from './chash.js';
import { createNodeClient, NodeCallError, type NodeClientOptions } from './node-client.js';
import { decodeCursor, encodeCursor, queryFor, selectPage } from './node-incoming.js';
import { openSendJournal, type JournalEntry } from './node-journal.js';
import {
  type ExtendedTransaction,
  extendedTransactionSchema,
  failBodySchema,
  incomingOfExtended,
  MAINNET_GENESIS_SHARD_ID,
  NODE_ENDPOINT,
  type NodeNotification,
  type OutputRow,
  outputRowsSchema,
  balanceBodySchema,
  sendPayload,
  sendSuccessBodySchema,
  sessionBodySchema,
  statusOfExtended,
} from './node-protocol.js';
import {
  assertIncomingLimit,
  assertValidSendRequest,
  type IncomingTransaction,
  MillixNetworkError,
  type MillixNetworkPort,
  type MillixSendRequest,
} from './port.js';

/**
 * How long an attempt whose answer was lost stays "in doubt" before it may be sent again when
 * the node shows no trace of it. Longer than a request (timeoutMs) plus the node's own queue
 * (its send mutex), so that a slow first attempt is found rather than duplicated.
 */
export const IN_DOUBT_GRACE_MS = 120_000;
/** Node clocks and Quern's differ; the search for a lost attempt starts this much earlier. */
const CLOCK_SKEW_SECONDS = 300;
/** Rows and candidate transactions examined when looking for a lost attempt. */
const SEARCH_ROWS_MAX = 200;
const SEARCH_CANDIDATES_MAX = 5;
/**
 * Outputs per incomingSince page. Each page costs one get_transaction_extended per transaction
 * (the payer is only on the inputs), so a page is kept small enough to finish in seconds.
 */
export const NODE_INCOMING_PAGE_MAX = 100;

export interface MillixNodeOptions extends NodeClientOptions {
  /** The send journal's SQLite file, normally `<DATA_DIR>/millix-node-sends.sqlite`. */
  journalFile: string;
  /** Key identifier whose incoming outputs incomingSince lists; default: the node wallet's. */
  watchKeyIdentifier?: string;
  /** Shard asked for transactions Quern did not send; default: the mainnet genesis shard. */
  shardId?: string;
  now?: () => Date;
}

export type MillixNodeNetwork = MillixNetworkPort & {
  /** The outputs of a transaction the node notified Quern about, read from the node itself. */
  incomingFromNotification(notification: NodeNotification): Promise<IncomingTransaction[]>;
};

/** A short, printable account of an answer, for error messages (never the credentials). */
const excerpt = (value: unknown): string => String(JSON.stringify(value)).slice(0, 300);

const describeFail = (body: unknown): string => {
  const message = typeof body === 'object' && body !== null ? (body as { api_message?: unknown }).api_message : undefined;
  return typeof message === 'string' ? message : excerpt(message ?? body);
};

/** The journal's file failing (locked too long, disk full) is an outage: nothing was sent. */
async function journalGuarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Database.SqliteError)
      throw new MillixNetworkError('unavailable', `millix send journal: ${error.message}`, { cause: error });
    throw error;
  }
}

function unexpected(endpointId: string, body: unknown): MillixNetworkError {
  return new MillixNetworkError('unavailable', `millix node ${endpointId}: unexpected answer ${excerpt(body)}`);
}

export function openMillixNodeNetwork(options: MillixNodeOptions): MillixNodeNetwork {
  const client = createNodeClient(options);
  const journal = openSendJournal(options.journalFile);
  const now = options.now ?? (() => new Date());
  const defaultShardId = options.shardId ?? MAINNET_GENESIS_SHARD_ID;
  let walletKeyIdentifier: Promise<string> | undefined;
  let closed = false;

  const assertOpen = (): void => {
    if (closed) throw new MillixNetworkError('unavailable', 'the millix node adapter is closed');
  };

  /** The node wallet's key identifier, asked once (get_session) and then remembered. */
  function nodeWalletKeyIdentifier(): Promise<string> {
    if (!walletKeyIdentifier) {
      const lookup = client.get(NODE_ENDPOINT.getSession, {}).then((body) => {
        const parsed = sessionBodySchema.safeParse(body);
        if (!parsed.success) throw new MillixNetworkError('unavailable', `millix node has no active wallet: ${describeFail(body)}`);
        return parsed.data.wallet.address_key_identifier;
      });
      walletKeyIdentifier = lookup;
      // A failed lookup is not remembered: the next call asks again.
      lookup.catch(() => {
        if (walletKeyIdentifier === lookup) walletKeyIdentifier = undefined;
      });
    }
    return walletKeyIdentifier;
  }

  /** The extended record of a transaction, or undefined when the node does not know it. */
  async function extended(transactionId: string, shardId: string): Promise<ExtendedTransaction | undefined> {
    const body = await client.get(NODE_ENDPOINT.getTransactionExtended, { p0: transactionId, p1: shardId });
    const fail = failBodySchema.safeParse(body);
    if (fail.success) {
      if (fail.data.api_status.startsWith('fail:not_found')) return undefined;
      throw new MillixNetworkError('unavailable', `millix node could not read transaction: ${describeFail(body)}`);
    }
    const parsed = extendedTransactionSchema.safeParse(body);
    if (!parsed.success) throw unexpected(NODE_ENDPOINT.getTransactionExtended, body);
    return parsed.data;
  }

  async function listOutputs(params: {
    dateBeginSeconds?: number | undefined;
    keyIdentifier: string;
    limit: number;
  }): Promise<OutputRow[]> {
    const body = await client.get(NODE_ENDPOINT.listTransactionOutput, {
      p1: params.dateBeginSeconds,
      p3: params.keyIdentifier,
      p13: 'transaction_date asc',
      p14: params.limit,
    });
    const parsed = outputRowsSchema.safeParse(body);
    if (!parsed.success) throw unexpected(NODE_ENDPOINT.listTransactionOutput, body);
    return parsed.data;
  }

  /**
   * Looks on the node for the transaction an in-doubt attempt may have made: an output of the
   * same amount to the same address, dated after the attempt, paid from the node wallet, and
   * not already owned by another transfer.
   */
  async function findLostAttempt(entry: JournalEntry): Promise<{ transactionHash: string; shardId: string } | undefined> {
    const to = parseAddress(entry.toAddress);
    if (!to.ok) return undefined;
    const rows = await listOutputs({
      dateBeginSeconds: Math.max(Math.floor(entry.attemptedAtMs / 1000) - CLOCK_SKEW_SECONDS, 1),
      keyIdentifier: to.keyIdentifier,
      limit: SEARCH_ROWS_MAX,
    });
    const candidates = rows
      .filter((row) => row.address === entry.toAddress && BigInt(row.amount) === entry.amountMlx && !journal.isClaimed(row.transaction_id))
      .slice(0, SEARCH_CANDIDATES_MAX);
    if (candidates.length === 0) return undefined;
    const ours = await nodeWalletKeyIdentifier();
    for (const candidate of candidates) {
      const transaction = await extended(candidate.transaction_id, candidate.shard_id);
      if (transaction?.transaction_input_list.some((input) => input.address_key_identifier === ours)) {
        return { transactionHash: transaction.transaction_id, shardId: transaction.shard_id };
      }
    }
    return undefined;
  }

  /** Asks the node to send; the journal row already exists. */
  async function submit(request: MillixSendRequest): Promise<{ transactionHash: string }> {
    let body: unknown;
    try {
      body = await client.post(NODE_ENDPOINT.sendTransactionFromWallet, {
        p0: sendPayload(request.toAddress, request.amountMlx, request.feeMlx),
      });
    } catch (error) {
      // The node answered without running the handler: nothing moved, so the attempt can go.
      if (error instanceof NodeCallError && error.handler === 'notRun') journal.forget(request.transferId);
      throw error;
    }
    if (failBodySchema.safeParse(body).success) {
      journal.forget(request.transferId);
      throw new MillixNetworkError('rejected', `millix node refused the transaction: ${describeFail(body)}`);
    }
    const parsed = sendSuccessBodySchema.safeParse(body);
    // Success with a shape we cannot read leaves the attempt in doubt: the search will find it.
    if (!parsed.success) throw unexpected(NODE_ENDPOINT.sendTransactionFromWallet, body);
    const list = Array.isArray(parsed.data.transaction) ? parsed.data.transaction : [parsed.data.transaction];
    const to = parseAddress(request.toAddress);
    const paying = list.find((transaction) =>
      transaction.transaction_output_list?.some(
        (output) =>
          to.ok &&
          output.address_base === to.base &&
          output.address_key_identifier === to.keyIdentifier &&
          output.amount === Number(request.amountMlx),
      ),
    );
    const chosen = paying ?? list[list.length - 1];
    if (!chosen) throw unexpected(NODE_ENDPOINT.sendTransactionFromWallet, body);
    journal.complete(request.transferId, chosen.transaction_id, chosen.shard_id);
    return { transactionHash: chosen.transaction_id };
  }

  function assertSameDetails(entry: JournalEntry, request: MillixSendRequest): void {
    if (entry.toAddress !== request.toAddress || entry.amountMlx !== request.amountMlx || entry.feeMlx !== request.feeMlx) {
      throw new MillixNetworkError('rejected', `transfer ${request.transferId} was already sent with different details`);
    }
  }

  async function resumeInDoubt(entry: JournalEntry, request: MillixSendRequest): Promise<{ transactionHash: string }> {
    const found = await findLostAttempt(entry);
    if (found) {
      journal.complete(entry.transferId, found.transactionHash, found.shardId);
      return { transactionHash: found.transactionHash };
    }
    const nowMs = now().getTime();
    if (nowMs - entry.attemptedAtMs < IN_DOUBT_GRACE_MS || !journal.retake(entry.transferId, entry.attemptedAtMs, nowMs)) {
      throw new MillixNetworkError('unavailable', `transfer ${entry.transferId}: an earlier attempt's outcome is not known yet`);
    }
    return submit(request);
  }

  return {
    async send(request) {
      assertOpen();
      assertValidSendRequest(request);
      return journalGuarded(async () => {
        const entry = journal.get(request.transferId);
        if (entry) {
          assertSameDetails(entry, request);
          if (entry.transactionHash) return { transactionHash: entry.transactionHash };
          return resumeInDoubt(entry, request);
        }
        if (!journal.begin({ ...request, attemptedAtMs: now().getTime() })) {
          throw new MillixNetworkError('unavailable', `transfer ${request.transferId}: another attempt is in progress`);
        }
        return submit(request);
      });
    },

    async transactionStatus(transactionHash) {
      assertOpen();
      if (!isMillixTransactionId(transactionHash)) return 'unknown';
      const transaction = await extended(transactionHash, journal.shardOf(transactionHash) ?? defaultShardId);
      return transaction ? statusOfExtended(transaction) : 'unknown';
    },

    async balance(address) {
      assertOpen();
      const parsed = parseAddress(address);
      if (!parsed.ok) throw new MillixNetworkError('invalidAddress', `not a millix address (${parsed.reason})`);
      const body = await client.get(NODE_ENDPOINT.getAddressBalance, { p0: address });
      const balance = balanceBodySchema.safeParse(body);
      if (!balance.success) throw unexpected(NODE_ENDPOINT.getAddressBalance, body);
      return { stableMlx: BigInt(balance.data.stable), unstableMlx: BigInt(balance.data.unstable) };
    },

    async incomingSince(cursorText, limit) {
      assertOpen();
      assertIncomingLimit(limit);
      const pageLimit = Math.min(limit, NODE_INCOMING_PAGE_MAX);
      const cursor = decodeCursor(cursorText);
      const keyIdentifier = options.watchKeyIdentifier ?? (await nodeWalletKeyIdentifier());
      const { dateBeginSeconds, fetchLimit } = queryFor(cursor, pageLimit);
      const rows = await listOutputs({ dateBeginSeconds, keyIdentifier, limit: fetchLimit });
      const { page, next } = selectPage(cursor, rows, pageLimit);
      // The payer is on the transaction's inputs, which the output rows do not carry.
      const payers = new Map<string, string>();
      for (const row of page) {
        if (payers.has(row.transaction_id)) continue;
        const transaction = await extended(row.transaction_id, row.shard_id);
        payers.set(row.transaction_id, transaction?.transaction_input_list.find((input) => input.address)?.address ?? '');
      }
      return {
        transactions: page.map((row) => ({
          transactionHash: row.transaction_id,
          outputPosition: row.output_position,
          toAddress: row.address,
          fromAddress: payers.get(row.transaction_id) ?? '',
          amountMlx: BigInt(row.amount),
          observedAt: new Date(row.transaction_date * 1000).toISOString(),
        })),
        cursor: encodeCursor(next),
      };
    },

    async incomingFromNotification(notification) {
      assertOpen();
      const transaction = await extended(notification.transactionId, defaultShardId);
      return transaction ? incomingOfExtended(transaction) : [];
    },

    async close() {
      if (closed) return;
      closed = true;
      journal.close();
    },
  };
}
