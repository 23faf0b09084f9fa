/**
 * The simulated millix network: the offline default (no node needed) for development, tests and
 * demos. One SQLite file (`<DATA_DIR>/simulated-network.sqlite`) holds every transaction the
 * simulated network has seen. WAL lets the faucet CLI, a separate process, add deposits while
 * Quern reads and writes the same file; synchronous = FULL makes a deposit that the faucet has
 * reported survive a power cut, as the event log does (ADR 002).
 *
 * What it simulates, and what it does not (docs/decisions/008-millix-network-port.md):
 * - Addresses are checked with the wallet module's parseAddress; an invalid one is refused with
 *   `invalidAddress`, as a node refuses to build an output to it.
 * - Every transaction becomes stable `confirmDelayMs` after it was created. The delay is fixed
 *   by whoever creates the transaction (its stable time is stored), so Quern and the faucet
 *   agree on a deposit's status even if they were started with different delays.
 * - Transaction hashes are real millix transaction-id format (cHash288, chash.ts). A send's hash
 *   is derived from its transferId, so a retried send finds the same row and the same hash.
 * - Funds are not enforced. Quern's ledger already guarantees that a payer can pay (ADR 005),
 *   and on the real network Quern's node wallet, not the user's address, pays external sends.
 *   Deposits from the faucet are the mint of test money: nothing backs them.
 * - balance(address) is what the network has delivered to the address (stable / not yet).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { createAddress, MLX_TOTAL_SUPPLY, parseAddress, type MillixNetwork } from '@quern/core/wallet';
import { cHash288 } from './chash.js';
import {
  assertIncomingLimit,
  assertValidSendRequest,
  type IncomingPage,
  type MillixBalance,
  MillixNetworkError,
  type MillixNetworkPort,
  type MillixSendRequest,
  type MillixTransactionStatus,
} from './port.js';

export const SIMULATED_NETWORK_FILE_NAME = 'simulated-network.sqlite';
export const DEFAULT_CONFIRM_DELAY_MS = 2_000;
/** A day: a longer "confirmation" is a configuration mistake, not a simulation. */
export const CONFIRM_DELAY_MS_MAX = 86_400_000;
/** How long a writer waits for the other process's write lock before reporting `unavailable`. */
export const BUSY_TIMEOUT_MS = 5_000;
/** Hashes longer than this are not millix transaction ids; the network does not know them. */
const TRANSACTION_HASH_LENGTH_MAX = 128;
const CURSOR_PATTERN = /^(0|[1-9][0-9]{0,18})$/;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS transactions (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    transaction_hash TEXT    NOT NULL UNIQUE,
    kind             TEXT    NOT NULL CHECK (kind IN ('send', 'deposit')),
    transfer_id      TEXT    UNIQUE,
    from_address     TEXT    NOT NULL,
    to_address       TEXT    NOT NULL,
    amount_mlx       INTEGER NOT NULL CHECK (amount_mlx > 0),
    fee_mlx          INTEGER NOT NULL CHECK (fee_mlx >= 0),
    created_at_ms    INTEGER NOT NULL,
    stable_at_ms     INTEGER NOT NULL,
    rejected_at_ms   INTEGER
  );
  CREATE INDEX IF NOT EXISTS transactions_to_address ON transactions (to_address);
`;

interface TransactionRow {
  seq: bigint;
  transaction_hash: string;
  transfer_id: string | null;
  from_address: string;
  to_address: string;
  amount_mlx: bigint;
  fee_mlx: bigint;
  created_at_ms: bigint;
  stable_at_ms: bigint;
  rejected_at_ms: bigint | null;
}

export interface SimulatedNetworkOptions {
  file: string;
  /** Default DEFAULT_CONFIRM_DELAY_MS. */
  confirmDelayMs?: number;
  now?: () => Date;
}

export type SimulatedNetwork = MillixNetworkPort & {
  /** The faucet: MLX from nowhere to `toAddress`, pending until the confirmation delay passes. */
  deposit(toAddress: string, amountMlx: bigint, fromAddress?: string): Promise<{ transactionHash: string }>;
  /**
   * Marks a transaction invalid, as the network does with a double spend, so that the paths
   * that handle `rejected` can be exercised locally. False when the hash is unknown.
   */
  invalidate(transactionHash: string): Promise<boolean>;
};

/** Where the simulated faucet's deposits come from: a fixed, valid address on each network. */
export function simulatedFaucetAddress(network: MillixNetwork): string {
  const keyIdentifier = createHash('sha256').update('quern-simulated-faucet').digest().subarray(0, 20);
  return createAddress(new Uint8Array(keyIdentifier), network);
}

function openDatabase(file: string): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.defaultSafeIntegers(true);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(SCHEMA);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** A database failure (the other process holds the lock too long, a full disk) is an outage. */
function asNetworkFailure(error: unknown): never {
  if (error instanceof MillixNetworkError) throw error;
  if (error instanceof Database.SqliteError)
    throw new MillixNetworkError('unavailable', `simulated network: ${error.message}`, { cause: error });
  throw error;
}

function checkedDelay(confirmDelayMs: number | undefined): number {
  const delay = confirmDelayMs ?? DEFAULT_CONFIRM_DELAY_MS;
  if (!Number.isInteger(delay) || delay < 0 || delay > CONFIRM_DELAY_MS_MAX) {
    throw new RangeError(`confirmDelayMs must be an integer in 0..${CONFIRM_DELAY_MS_MAX}, got ${String(confirmDelayMs)}`);
  }
  return delay;
}

function statusOf(row: TransactionRow, nowMs: bigint): MillixTransactionStatus {
  if (row.rejected_at_ms !== null) return 'rejected';
  return nowMs >= row.stable_at_ms ? 'stable' : 'pending';
}

export function openSimulatedNetwork(options: SimulatedNetworkOptions): SimulatedNetwork {
  const confirmDelayMs = BigInt(checkedDelay(options.confirmDelayMs));
  const now = options.now ?? (() => new Date());
  const db = openDatabase(options.file);
  let closed = false;

  const byHash = db.prepare<[string], TransactionRow>('SELECT * FROM transactions WHERE transaction_hash = ?');
  const byTransferId = db.prepare<[string], TransactionRow>('SELECT * FROM transactions WHERE transfer_id = ?');
  const selectTo = db.prepare<[string], TransactionRow>('SELECT * FROM transactions WHERE to_address = ? AND rejected_at_ms IS NULL');
  const after = db.prepare<[bigint, number], TransactionRow>('SELECT * FROM transactions WHERE seq > ? ORDER BY seq LIMIT ?');
  const insert = db.prepare(
    `INSERT INTO transactions (transaction_hash, kind, transfer_id, from_address, to_address, amount_mlx, fee_mlx, created_at_ms, stable_at_ms)
     VALUES (@hash, @kind, @transferId, @fromAddress, @toAddress, @amountMlx, @feeMlx, @createdAtMs, @stableAtMs)`,
  );
  const markRejected = db.prepare('UPDATE transactions SET rejected_at_ms = ? WHERE transaction_hash = ? AND rejected_at_ms IS NULL');

  const nowMs = (): bigint => BigInt(now().getTime());
  const assertOpen = (): void => {
    if (closed) throw new MillixNetworkError('unavailable', 'the simulated network is closed');
  };
  const record = (row: {
    hash: string;
    kind: 'send' | 'deposit';
    transferId: string | null;
    fromAddress: string;
    toAddress: string;
    amountMlx: bigint;
    feeMlx: bigint;
  }): void => {
    const createdAtMs = nowMs();
    insert.run({ ...row, createdAtMs, stableAtMs: createdAtMs + confirmDelayMs });
  };

  // IMMEDIATE takes the write lock before the read, so two processes sending the same transfer
  // cannot both miss the other's row; the second one finds it and returns the same hash.
  const sendOnce = db.transaction((request: MillixSendRequest, hash: string): string => {
    const existing = byTransferId.get(request.transferId);
    if (!existing) {
      record({
        hash,
        kind: 'send',
        transferId: request.transferId,
        fromAddress: request.fromAddress,
        toAddress: request.toAddress,
        amountMlx: request.amountMlx,
        feeMlx: request.feeMlx,
      });
      return hash;
    }
    const same =
      existing.from_address === request.fromAddress &&
      existing.to_address === request.toAddress &&
      existing.amount_mlx === request.amountMlx &&
      existing.fee_mlx === request.feeMlx;
    if (!same) throw new MillixNetworkError('rejected', `transfer ${request.transferId} was already sent with different details`);
    return existing.transaction_hash;
  });

  return {
    async send(request) {
      assertOpen();
      assertValidSendRequest(request);
      try {
        return { transactionHash: sendOnce.immediate(request, cHash288(`quern-simulated-send:${request.transferId}`)) };
      } catch (error) {
        return asNetworkFailure(error);
      }
    },

    async transactionStatus(transactionHash) {
      assertOpen();
      if (typeof transactionHash !== 'string' || transactionHash.length > TRANSACTION_HASH_LENGTH_MAX) return 'unknown';
      try {
        const row = byHash.get(transactionHash);
        return row ? statusOf(row, nowMs()) : 'unknown';
      } catch (error) {
        return asNetworkFailure(error);
      }
    },

    async balance(address): Promise<MillixBalance> {
      assertOpen();
      const parsed = parseAddress(address);
      if (!parsed.ok) throw new MillixNetworkError('invalidAddress', `not a millix address (${parsed.reason})`);
      try {
        const at = nowMs();
        const balance = { stableMlx: 0n, unstableMlx: 0n };
        // Summed in bigint, not SQL SUM: faucet deposits are unbounded in number.
        for (const row of selectTo.iterate(address)) {
          if (statusOf(row, at) === 'stable') balance.stableMlx += row.amount_mlx;
          else balance.unstableMlx += row.amount_mlx;
        }
        return balance;
      } catch (error) {
        return asNetworkFailure(error);
      }
    },

    async incomingSince(cursor, limit): Promise<IncomingPage> {
      assertOpen();
      assertIncomingLimit(limit);
      if (cursor !== undefined && !CURSOR_PATTERN.test(cursor))
        throw new RangeError(`incomingSince: not a simulated-network cursor: ${JSON.stringify(cursor)}`);
      try {
        const rows = after.all(BigInt(cursor ?? '0'), limit);
        const last = rows.at(-1);
        return {
          transactions: rows.map((row) => ({
            transactionHash: row.transaction_hash,
            outputPosition: 0,
            toAddress: row.to_address,
            fromAddress: row.from_address,
            amountMlx: row.amount_mlx,
            observedAt: new Date(Number(row.created_at_ms)).toISOString(),
          })),
          cursor: last ? last.seq.toString() : (cursor ?? '0'),
        };
      } catch (error) {
        return asNetworkFailure(error);
      }
    },

    async deposit(to, amountMlx, fromAddress) {
      assertOpen();
      const parsed = parseAddress(to);
      if (!parsed.ok) throw new MillixNetworkError('invalidAddress', `not a millix address (${parsed.reason})`);
      const from = fromAddress ?? simulatedFaucetAddress(parsed.network);
      if (!parseAddress(from).ok) throw new MillixNetworkError('invalidAddress', 'the deposit comes from an invalid address');
      if (typeof amountMlx !== 'bigint' || amountMlx <= 0n || amountMlx > MLX_TOTAL_SUPPLY) {
        throw new MillixNetworkError('rejected', `a deposit must be a positive integer up to the supply: ${String(amountMlx)}`);
      }
      const hash = cHash288(`quern-simulated-deposit:${randomUUID()}`);
      try {
        record({ hash, kind: 'deposit', transferId: null, fromAddress: from, toAddress: to, amountMlx, feeMlx: 0n });
        return { transactionHash: hash };
      } catch (error) {
        return asNetworkFailure(error);
      }
    },

    async invalidate(transactionHash) {
      assertOpen();
      try {
        return markRejected.run(nowMs(), transactionHash).changes > 0;
      } catch (error) {
        return asNetworkFailure(error);
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
