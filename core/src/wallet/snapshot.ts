/**
 * Wallet snapshots (ADR 020): a wallet's decision state as plain data, saved every so many events
 * so that loading a wallet with a long history reads the last snapshot and the events after it
 * instead of folding the whole stream. A snapshot is a cache: a rebuild from the events gives the
 * same state, a snapshot of another shape (or unreadable) is ignored, and a missing one only costs
 * time. Pure: the handlers read and write the snapshot stream.
 */
import { z } from 'zod';
import { depositRejectReasons, transferVoidReasons, walletKinds } from './events.js';
import { transferReferenceSchema } from './transfer-reference.js';
import type { DepositRecord, IncomingTransfer, OutgoingTransfer, WalletState } from './state.js';

/** Snapshots live beside, not inside, the wallet streams: readers of `wallet-*` never see them. */
export const walletSnapshotStream = (walletId: string): string => `snapshot-wallet-${walletId}`;
export const WALLET_SNAPSHOT_EVENT = 'WalletSnapshotTaken';
/** Bumped whenever WalletState changes shape; snapshots of any other version are ignored. */
// 2: WalletState.closedAt (ADR 042). A version-1 reader would drop the field and see a closed
// wallet as open, so it must not read a version-2 snapshot.
// 3: WalletState.purchaseHolds (ADR 047): a version-2 reader would let held MLX be sent.
// 4: DepositRecord.toAddress (issue 27): a version-3 reader would drop it and settle a deposit to
// an invoice's address as paid to the wallet's own, and the invoice would never count it.
export const WALLET_SNAPSHOT_VERSION = 4;
/**
 * Events between snapshots. A cold load folds at most this many events after the snapshot; a
 * snapshot is at most a few hundred kilobytes (the state is bounded), so one per this many
 * events keeps snapshots a small fraction of the stream's own size.
 */
export const SNAPSHOT_EVERY_EVENTS = 5_000;

// Signed: a snapshot copies the state as it is, and a corrupted log can fold to a negative balance
// (the audit reports it); refusing to snapshot it would only make the wallet slower to load.
const mlx = z.string().regex(/^-?\d{1,30}$/);
const mlxToWire = (amountMlx: bigint): string => amountMlx.toString(10);
const mlxFromWire = (text: string): bigint => BigInt(text);
const outgoing = z.object({
  direction: z.literal('outgoing'),
  transferId: z.string(),
  status: z.enum(['reserved', 'posted', 'voided']),
  toAddress: z.string(),
  toWalletId: z.string().optional(),
  amountMlx: mlx,
  feeMlx: mlx,
  idempotencyKey: z.string().optional(),
  voidReason: z.enum(transferVoidReasons as [string, ...string[]]).optional(),
  reference: transferReferenceSchema.optional(),
});
const incoming = z.object({
  direction: z.literal('incoming'),
  transferId: z.string(),
  status: z.literal('credited'),
  fromWalletId: z.string(),
  fromAddress: z.string(),
  amountMlx: mlx,
  settledAtOnce: z.literal(true).optional(),
});
const deposit = z.object({
  depositId: z.string(),
  status: z.enum(['received', 'confirmed', 'rejected']),
  networkTransactionHash: z.string(),
  fromAddress: z.string(),
  toAddress: z.string().optional(),
  amountMlx: mlx,
  rejectReason: z.enum(depositRejectReasons as [string, ...string[]]).optional(),
  claimed: z.literal(true).optional(),
});
const snapshotData = z.object({
  version: z.literal(WALLET_SNAPSHOT_VERSION),
  /** The wallet stream's revision the state includes (eventCount - 1). */
  revision: z.string().regex(/^\d{1,20}$/),
  wallet: z.object({
    walletId: z.string(),
    kind: z.enum(walletKinds as [string, ...string[]]),
    address: z.string(),
    network: z.enum(['mainnet', 'testnet']),
    ownerUserId: z.string().optional(),
  }),
  postedBalanceMlx: mlx,
  pendingDebitsMlx: mlx,
  pendingCreditsMlx: mlx,
  mintedMlx: mlx,
  openReservationCount: z.number().int().min(0),
  eventCount: z.number().int().min(1),
  transfers: z.array(z.discriminatedUnion('direction', [outgoing, incoming])),
  settledTransferIds: z.array(z.string()),
  deposits: z.array(deposit),
  settledDepositIds: z.array(z.string()),
  idempotencyKeys: z.array(z.tuple([z.string(), z.string()])),
  closedAt: z.string().optional(),
  purchaseHolds: z.array(z.tuple([z.string(), z.object({ amountMlx: mlx, holdUntil: z.string() })])),
});
export type WalletSnapshotData = z.infer<typeof snapshotData>;

type Plain<T> = { [K in keyof T]: T[K] extends bigint ? string : T[K] extends bigint | undefined ? string | undefined : T[K] };
const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/** The state as plain JSON data, copied now (evolve later mutates the state's maps in place). */
export function toWalletSnapshot(state: WalletState): WalletSnapshotData | undefined {
  if (!state.wallet || state.eventCount === 0) return undefined;
  const transfers = [...state.transfers.values()].map((t) =>
    withoutUndefined({ ...t, amountMlx: mlxToWire(t.amountMlx), ...(t.direction === 'outgoing' ? { feeMlx: mlxToWire(t.feeMlx) } : {}) }),
  ) as Array<Plain<OutgoingTransfer> | Plain<IncomingTransfer>>;
  return {
    version: WALLET_SNAPSHOT_VERSION,
    revision: String(state.eventCount - 1),
    wallet: withoutUndefined({ ...state.wallet }),
    postedBalanceMlx: mlxToWire(state.postedBalanceMlx),
    pendingDebitsMlx: mlxToWire(state.pendingDebitsMlx),
    pendingCreditsMlx: mlxToWire(state.pendingCreditsMlx),
    mintedMlx: mlxToWire(state.mintedMlx),
    openReservationCount: state.openReservationCount,
    eventCount: state.eventCount,
    transfers,
    settledTransferIds: [...state.settledTransferIds],
    deposits: [...state.deposits.values()].map((d) => withoutUndefined({ ...d, amountMlx: mlxToWire(d.amountMlx) })),
    settledDepositIds: [...state.settledDepositIds],
    idempotencyKeys: [...state.idempotencyKeys.entries()],
    ...(state.closedAt === undefined ? {} : { closedAt: state.closedAt }),
    purchaseHolds: [...state.purchaseHolds.entries()].map(([orderId, hold]) => [
      orderId,
      { amountMlx: mlxToWire(hold.amountMlx), holdUntil: hold.holdUntil },
    ]),
  };
}

/** A state rebuilt from snapshot data; undefined when the data is of another version or malformed. */
export function fromWalletSnapshot(data: unknown): { state: WalletState; revision: bigint } | undefined {
  const parsed = snapshotData.safeParse(data);
  if (!parsed.success) return undefined;
  const s = parsed.data;
  if (BigInt(s.revision) !== BigInt(s.eventCount - 1)) return undefined;
  const transfers = new Map<string, OutgoingTransfer | IncomingTransfer>();
  for (const t of s.transfers) {
    const amountMlx = mlxFromWire(t.amountMlx);
    if (t.direction === 'outgoing') transfers.set(t.transferId, { ...t, amountMlx, feeMlx: mlxFromWire(t.feeMlx) } as OutgoingTransfer);
    else transfers.set(t.transferId, { ...t, amountMlx });
  }
  const deposits = new Map<string, DepositRecord>();
  for (const d of s.deposits) deposits.set(d.depositId, { ...d, amountMlx: mlxFromWire(d.amountMlx) } as DepositRecord);
  const state: WalletState = {
    wallet: s.wallet as WalletState['wallet'],
    postedBalanceMlx: mlxFromWire(s.postedBalanceMlx),
    pendingDebitsMlx: mlxFromWire(s.pendingDebitsMlx),
    pendingCreditsMlx: mlxFromWire(s.pendingCreditsMlx),
    mintedMlx: mlxFromWire(s.mintedMlx),
    openReservationCount: s.openReservationCount,
    transfers,
    settledTransferIds: new Set(s.settledTransferIds),
    deposits,
    settledDepositIds: new Set(s.settledDepositIds),
    idempotencyKeys: new Map(s.idempotencyKeys),
    eventCount: s.eventCount,
    purchaseHolds: new Map(
      s.purchaseHolds.map(([orderId, hold]) => [orderId, { amountMlx: mlxFromWire(hold.amountMlx), holdUntil: hold.holdUntil }]),
    ),
  };
  if (s.closedAt !== undefined) state.closedAt = s.closedAt;
  return { state, revision: BigInt(s.revision) };
}
