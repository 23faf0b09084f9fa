/**
 * The terms the wallet holds a referenced transfer to (ADR 077). The wallet knows no capability:
 * each capability that moves MLX states the terms of its reference kinds beside their schema (its
 * transfer-reference.ts), the list above the capabilities (core/src/transfer-references) gathers
 * them into one book, and the composition root hands that book to the wallet. The decider checks a
 * reservation against its kind's terms; the fold reads the kind's effect on bought MLX's hold.
 */
import type { TransferReference } from './transfer-reference.js';

/** Which wallet may be a transfer's payer or payee: a user's, the reserve, or any the wallet rules allow. */
export type TransferParty = 'user' | 'reserve' | 'any';

/**
 * What a transfer does to MLX bought with PayPal and still held (ADR 047):
 * - `starts`: its credit holds what it brought (the reference's `orderId` names the hold);
 * - `returns`: it gives bought MLX back, so the hold of its `orderId` shrinks by the amount;
 * - `spends`: it may use held MLX and uses it first, so later credits are not blocked behind a hold
 *   whose coins are gone;
 * - `blocked`: held MLX may not pay it (it leaves the buyer's reach for good);
 * - `none`: it may use held MLX and leaves the holds as they are.
 */
export type PurchaseHoldEffect = 'starts' | 'returns' | 'spends' | 'blocked' | 'none';

/** The part of a zod schema the wallet calls: whether a reference has its kind's fields. */
export interface ReferenceSchema {
  safeParse(reference: unknown): { success: boolean };
}

export interface TransferTerms {
  /** The kind's ids and counts as its capability defines them; a reference it refuses is refused. */
  reference: ReferenceSchema;
  payer: TransferParty;
  payee: TransferParty;
  /** `send`: the send's fee (SEND_FEE_MLX); `none`: the payer pays exactly the amount. */
  fee: 'send' | 'none';
  /** `atOnce`: settled in the append that decides it; `atOnceOrLater`: may also wait for the settlement job. */
  settlement: 'atOnce' | 'atOnceOrLater';
  purchaseHold: PurchaseHoldEffect;
}

/** Every reference kind the wallet accepts, with its terms; a kind not in the book is refused. */
export type TransferTermsBook = ReadonlyMap<string, TransferTerms>;

/** A send without a reference (a person's send): the send's fee, may wait, and bought MLX may not pay it. */
export const PLAIN_SEND_TERMS: Omit<TransferTerms, 'reference'> = {
  payer: 'any',
  payee: 'any',
  fee: 'send',
  settlement: 'atOnceOrLater',
  purchaseHold: 'blocked',
};

/** The terms of a recorded reference's kind; undefined when the book has no such kind. */
export const termsOf = (book: TransferTermsBook, reference: TransferReference): TransferTerms | undefined => book.get(reference.kind);

/** The hold effect of a transfer as recorded: a kind the book does not know (a broken log) does nothing. */
export function purchaseHoldEffectOf(book: TransferTermsBook, reference: TransferReference | undefined): PurchaseHoldEffect {
  if (reference === undefined) return PLAIN_SEND_TERMS.purchaseHold;
  return termsOf(book, reference)?.purchaseHold ?? 'none';
}
