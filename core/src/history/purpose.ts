/**
 * What a history row says a transfer was for, when it was not a plain send: the wire form of a
 * transfer's `reference` (ADR 025), as the history's contracts answer it. Each capability that
 * moves MLX defines its purposes (its purpose.ts) and renames its references to them (its
 * money.ts); the purposes' union, kinds and wire schema are derived here from the one list
 * (ADR 078), and the read model stores the wire form (a row is then answered without any mapping
 * at read time).
 */
import { z } from 'zod';
import {
  type KnownTransferReference,
  MONEY_CAPABILITIES,
  type MoneyCapabilities,
  type MoneyCapabilityName,
  moneyCapabilityOf,
} from '../transfer-references/known.js';
import type { TransferReference } from '../wallet/transfer-reference.js';

type PurposeOf<C> = C extends { purposeOf(reference: TransferReference): infer Purpose | undefined } ? Purpose : never;

export type TransactionPurpose = { [K in MoneyCapabilityName]: PurposeOf<MoneyCapabilities[K]> }[MoneyCapabilityName];
export type TransactionPurposeKind = TransactionPurpose['kind'];

export const transactionPurposeKinds: readonly TransactionPurposeKind[] = Object.values(MONEY_CAPABILITIES).flatMap(
  (capability): readonly TransactionPurposeKind[] => capability.purposes.kinds,
);

export const isTransactionPurposeKind = (kind: string): kind is TransactionPurposeKind =>
  (transactionPurposeKinds as readonly string[]).includes(kind);

/**
 * Not in the spec: what a transfer was for when it was not a plain send. Optional on a row, so
 * rows projected before it existed, and every send or deposit, stay valid without it.
 */
export const transactionPurposeOutput = z.union(Object.values(MONEY_CAPABILITIES).map((capability) => capability.purposes.schema));

/** The wire form of a known reference, from the capability that owns its kind. */
export function toTransactionPurpose(reference: KnownTransferReference): TransactionPurpose {
  const purpose = moneyCapabilityOf(reference)?.purposeOf(reference);
  // A known reference is its capability's by construction (toKnownTransferReference read it so).
  if (purpose === undefined) throw new Error(`no capability gives a purpose to a ${reference.kind} reference`);
  return purpose;
}
