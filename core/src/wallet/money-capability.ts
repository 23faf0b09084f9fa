/**
 * What a capability that moves MLX through the wallet states about it, as one value (ADR 078):
 * its reference kinds with the wallet's terms for each, its strict reading of a recorded
 * reference, the history's purpose of its transfers, and its ledger audit rule. The list above the
 * capabilities (core/src/transfer-references/known.ts) names each value once, and the wallet's
 * book of terms, the known kinds, the history's purposes and the ledger audit are derived from it.
 */
import type { z } from 'zod';
import type { AuditReport, CapabilityAuditRule } from '../shared/audit-rule.js';
import { type CapabilityAuditor, createCapabilityAuditor } from '../shared/transfer-claims.js';
import type { PurposeShape } from './purpose.js';
import type { TransferReference } from './transfer-reference.js';
import type { TransferTerms } from './transfer-terms.js';

export interface MoneyCapability<
  Reference extends TransferReference,
  Purpose extends PurposeShape,
  Wire extends PurposeShape,
  Code extends string,
  Figures,
> {
  /** Its reference kinds, in the order the history and tests list them. */
  kinds: readonly Reference['kind'][];
  /** The wallet's terms of each kind (ADR 077). */
  terms: Readonly<Record<Reference['kind'], TransferTerms>>;
  /** The reference read strictly with the capability's schema; undefined when it is not one of its own. */
  parse(reference: unknown): Reference | undefined;
  /** The history's purposes of its transfers (core/src/history): their kinds, and their wire schema as rows answer them. */
  purposes: { kinds: readonly Purpose['kind'][]; schema: z.ZodType<Wire> };
  /** The history's purpose of one of its references, as the read model stores it; undefined when it is not one. */
  purposeOf(reference: TransferReference): Purpose | undefined;
  /** Its part of one ledger audit run: its own checks, and its claims matched with the wallet's transfers. */
  startAudit(report: AuditReport<Code>): CapabilityAuditor<Code, Figures>;
}

/** The capability's parts, checked against each other by their types, as one MoneyCapability. */
export function moneyCapability<
  Reference extends TransferReference,
  Purpose extends PurposeShape,
  Wire extends PurposeShape,
  Code extends string,
  Claim,
  Figures,
>(parts: {
  kinds: readonly Reference['kind'][];
  reference: z.ZodType<Reference>;
  terms: Readonly<Record<Reference['kind'], TransferTerms>>;
  purposes: { kinds: readonly Purpose['kind'][]; schema: z.ZodType<Wire> };
  purpose: (reference: Reference) => Purpose;
  audit: CapabilityAuditRule<Code, Claim, Reference, Figures>;
}): MoneyCapability<Reference, Purpose, Wire, Code, Figures> {
  const parse = (reference: unknown): Reference | undefined => {
    const parsed = parts.reference.safeParse(reference);
    return parsed.success ? parsed.data : undefined;
  };
  return {
    kinds: parts.kinds,
    terms: parts.terms,
    parse,
    purposes: parts.purposes,
    purposeOf(reference) {
      const own = parse(reference);
      return own === undefined ? undefined : parts.purpose(own);
    },
    startAudit: (report) => createCapabilityAuditor(parts.audit, report),
  };
}
