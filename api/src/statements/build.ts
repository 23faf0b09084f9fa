/**
 * Builds a statement from the log and hands it to a renderer piece by piece (ADR 090): the header
 * first, then each row as it is read (numbered, its balance carried forward, its chain hash taken),
 * then the closing balance, totals and signature. Nothing holds more than one page of the log, so
 * any month streams in bounded memory whatever its size.
 */
import type { EventStore } from '@quern/core';
import {
  balanceAfterMovement,
  createTotals,
  headerHash,
  hexOf,
  nextChainHash,
  type StatementHeaderFields,
  STATEMENT_VERSION,
  type StatementMonth,
  type StatementRow,
  type StatementRowFields,
  type StatementStatus,
  type StatementTotals,
  signedMessage,
} from '@quern/core/statements';
import { walletStream } from '@quern/core/wallet';
import { firstRevisionAtOrAfter, postedBalanceAfter } from './log-reads.js';
import { monthMovements } from './movements.js';
import type { StatementSigner } from './signing-key.js';

export interface StatementHead extends StatementHeaderFields {
  header_hash: string;
}

export interface StatementEnd {
  closing_balance: string;
  totals: StatementTotals;
  rowCount: number;
  signature: { algorithm: 'Ed25519'; public_key: string; last_hash: string; value: string };
}

/** What a format (JSON, CSV, PDF) does with each piece, in order; it may wait (backpressure). */
export interface StatementRenderer {
  header(head: StatementHead): Promise<void>;
  row(row: StatementRow): Promise<void>;
  end(end: StatementEnd): Promise<void>;
}

export interface StatementRequest {
  merchantId: string;
  month: StatementMonth;
  status: StatementStatus;
}

export interface StatementDeps {
  store: EventStore;
  signer: StatementSigner;
  /** The counterparty as people read it (not covered by the chain). */
  counterpartyName(row: StatementRowFields): Promise<string>;
  /** Tests only: a smaller page. */
  pageSize?: number;
}

export async function buildStatement(deps: StatementDeps, request: StatementRequest, renderer: StatementRenderer): Promise<void> {
  const stream = walletStream(request.merchantId);
  const first = await firstRevisionAtOrAfter(deps.store, stream, request.month.startMs);
  const opening = first === 0n ? 0n : await postedBalanceAfter(deps.store, stream, first - 1n);
  const header: StatementHeaderFields = {
    version: STATEMENT_VERSION,
    merchant_id: request.merchantId,
    month: request.month.month,
    status: request.status,
    currency: 'MLX',
    opening_balance: opening.toString(),
  };
  let hash = headerHash(header);
  await renderer.header({ ...header, header_hash: hexOf(hash) });
  let balance = header.opening_balance;
  let seq = 0;
  const totals = createTotals();
  for await (const { stamped, ...movement } of monthMovements(
    deps.store,
    stream,
    { fromRevision: first, endMs: request.month.endMs },
    deps.pageSize,
  )) {
    seq += 1;
    balance = balanceAfterMovement(balance, movement);
    // The chain would sign a balance the ledger never had: a log that disagrees with itself is reported, never stated.
    if (stamped !== undefined && stamped !== balance)
      throw new Error(`Wallet ${request.merchantId}: event ${movement.event_id} records balance ${stamped}, its movements give ${balance}`);
    const fields: StatementRowFields = { seq: String(seq), ...movement, balance_after: balance };
    hash = nextChainHash(hash, fields);
    totals.add(fields);
    await renderer.row({ ...fields, counterparty: await deps.counterpartyName(fields), hash: hexOf(hash) });
  }
  const last = hexOf(hash);
  const closing = { rowCount: seq, closingBalance: balance, totals: totals.result() };
  await renderer.end({
    closing_balance: balance,
    totals: closing.totals,
    rowCount: seq,
    signature: {
      algorithm: 'Ed25519',
      public_key: deps.signer.publicKeyBase64,
      last_hash: last,
      value: deps.signer.sign(signedMessage(last, closing)),
    },
  });
}
