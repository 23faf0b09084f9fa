/**
 * The history's purpose of a transfer (core/src/wallet/purpose.ts): the API speaks snake_case like
 * the spec's other transaction fields, so each capability renames its references' kinds and ids
 * (its money.ts), and the read model stores the wire form (a row is then answered without any
 * mapping at read time).
 */
import type { TransactionPurpose } from '../wallet/purpose.js';
import { type KnownTransferReference, moneyCapabilityOf } from './known.js';

/** The wire form of a known reference, from the capability that owns its kind. */
export function toTransactionPurpose(reference: KnownTransferReference): TransactionPurpose {
  const purpose = moneyCapabilityOf(reference)?.purposeOf(reference);
  // A known reference is its capability's by construction (toKnownTransferReference read it so).
  if (purpose === undefined) throw new Error(`no capability gives a purpose to a ${reference.kind} reference`);
  return purpose;
}
