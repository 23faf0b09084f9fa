/**
 * The plan form's checks, made with the server's own schema (core's planCreateInput), so the form
 * refuses exactly what the server would (spec section 5: all fields required, price digits only,
 * currency Millix only, duration Monthly only) and shows the same messages ("errors:..." keys).
 */
import { planCreateInput } from '@quern/core/plans';
import { firstIssuePerField } from '../../ui/formErrors.js';

export const planFields = ['name', 'description', 'price', 'currency', 'duration'] as const;
export type PlanField = (typeof planFields)[number];

/** What the form holds: the price as bare digits (the input groups them as typed). */
export interface PlanDraft {
  name: string;
  description: string;
  priceDigits: string;
  currency: string;
  duration: string;
}

/** What plans.create and plans.update receive: the price as a JSON integer. */
export interface PlanTerms {
  name: string;
  description: string;
  price: number | string;
  currency: string;
  duration: string;
}

export const emptyDraft: PlanDraft = { name: '', description: '', priceDigits: '', currency: '', duration: '' };

/** The price on the wire: an integer; digits beyond a safe integer stay text, for the server to refuse. */
const priceOnWire = (digits: string): number | string => {
  const value = Number(digits);
  return digits !== '' && Number.isSafeInteger(value) ? value : digits;
};

export const toTerms = (draft: PlanDraft): PlanTerms => ({
  name: draft.name.trim(),
  description: draft.description.trim(),
  price: priceOnWire(draft.priceDigits),
  currency: draft.currency,
  duration: draft.duration,
});

export type PlanValidation = { ok: true; terms: PlanTerms } | { ok: false; fields: Partial<Record<PlanField, string>> };

export function validatePlan(draft: PlanDraft): PlanValidation {
  const terms = toTerms(draft);
  const parsed = planCreateInput.safeParse(terms);
  if (parsed.success) return { ok: true, terms };
  return { ok: false, fields: firstIssuePerField(parsed.error.issues, planFields) };
}

export const sameDraft = (a: PlanDraft, b: PlanDraft): boolean =>
  a.name === b.name &&
  a.description === b.description &&
  a.priceDigits === b.priceDigits &&
  a.currency === b.currency &&
  a.duration === b.duration;
