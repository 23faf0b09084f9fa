/**
 * The shape of what a transfer was for, when it was not a plain send (ADR 074): a kind, which
 * names the capability that made the transfer, and that capability's bounded ids and counts. The
 * wallet stores a reference on the transfer's events and reads it back by this shape alone; each
 * capability owns its kind (its type, schema and guard sit in its own folder) and builds its
 * schema from the pieces here, so every kind's ids are bounded the same way.
 */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';

/** The provider's order, capture and refund ids a transfer reference names (ADR 025), and checkout order ids (ADR 029). */
export const TRANSFER_REFERENCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** A kind is a short camelCase word, as the capabilities record it (`checkout`, `purchaseRefund`). */
const TRANSFER_REFERENCE_KIND_PATTERN = /^[a-z][A-Za-z]{0,31}$/;
const PERIOD_MAX = 100_000;

/** An id a reference names: bounded, and safe in stream names and Redis keys. */
export const transferReferenceId = z.string().regex(TRANSFER_REFERENCE_ID_PATTERN);
/** A count a reference names (a subscription's period): a positive integer with a bound. */
export const transferReferenceCount = z.number().int().min(1).max(PERIOD_MAX);

/** A reference as the wallet holds it: a kind and named ids or counts, nothing else. */
export type TransferReference = TransferReferenceShape & { readonly [field: string]: string | number | undefined };

/** At most this many fields besides the kind: the largest kind today has three. */
const FIELDS_MAX = 8;
/** A field named `…Id` holds an id; any other field holds a count. */
const isIdField = (field: string): boolean => field.endsWith('Id');
const FIELD_PATTERN = /^[a-z][A-Za-z]{0,31}$/;

const fieldsAreWellNamed = (reference: Record<string, unknown>): boolean => {
  const fields = Object.keys(reference).filter((field) => field !== 'kind');
  return (
    fields.length <= FIELDS_MAX &&
    fields.every((field) => FIELD_PATTERN.test(field) && isIdField(field) === (typeof reference[field] === 'string'))
  );
};

/**
 * The wallet's reader of a recorded reference, shared with the wallet snapshot: every field is a
 * bounded id (a field named `…Id`) or a bounded count (any other), so a malformed id is refused
 * here; which fields a kind has is its capability's schema (core/src/transfer-references, for the
 * readers above the wallet).
 */
export const transferReferenceSchema: z.ZodType<TransferReference> = z
  .object({ kind: z.string().regex(TRANSFER_REFERENCE_KIND_PATTERN) })
  .catchall(z.union([transferReferenceId, transferReferenceCount]))
  .refine(fieldsAreWellNamed);

/** A reference's id field, or undefined when it has none (or a count by that name). */
export function referenceIdOf(reference: TransferReference, field: string): string | undefined {
  const value = reference[field];
  return typeof value === 'string' ? value : undefined;
}
