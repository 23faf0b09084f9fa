/**
 * The one list of the capabilities that move MLX (ADR 074, 077, 078). Each capability states, in
 * its own folder (`money.ts`), its reference kinds with the wallet's terms for them, its strict
 * reading of a recorded reference, the history's purpose of its transfers and its ledger audit
 * rule; this list names each once, and everything that must know every kind is derived from it:
 * the kinds and their union type, the strict reader, the wallet's book of terms, the history's
 * purposes (core/src/history/purpose.ts) and the ledger audit's rules, violation codes and figures
 * (core/src/audit/ledger.ts). Adding a capability that moves MLX is its folder plus one line here.
 */
import { checkoutMoney } from '../checkout/money.js';
import { invoicePaymentMoney } from '../invoices/money.js';
import { payoutMoney } from '../payouts/money.js';
import { purchaseMoney } from '../purchases/money.js';
import { checkoutRefundMoney } from '../refunds/money.js';
import type { AuditReport } from '../shared/audit-rule.js';
import { subscriptionChargeMoney } from '../subscriptions/money.js';
import type { MoneyCapability } from '../wallet/money-capability.js';
import type { PurposeShape } from '../wallet/purpose.js';
import type { TransferReference } from '../wallet/transfer-reference.js';
import type { TransferTermsBook } from '../wallet/transfer-terms.js';

/**
 * Keyed by the name the audit's figures carry; in the order the history's filter offers their
 * kinds and the audit reports their findings.
 */
export const MONEY_CAPABILITIES = {
  checkouts: checkoutMoney,
  refunds: checkoutRefundMoney,
  purchases: purchaseMoney,
  payouts: payoutMoney,
  subscriptions: subscriptionChargeMoney,
  invoices: invoicePaymentMoney,
} as const;

export type MoneyCapabilities = typeof MONEY_CAPABILITIES;
export type MoneyCapabilityName = keyof MoneyCapabilities;

type ReferenceOf<C> = C extends { parse(reference: unknown): infer Reference | undefined } ? Reference : never;
type CodeOf<C> = C extends { startAudit(report: AuditReport<infer Code>): unknown } ? Code : never;

export type KnownTransferReference = { [K in MoneyCapabilityName]: ReferenceOf<MoneyCapabilities[K]> }[MoneyCapabilityName];
export type TransferReferenceKind = KnownTransferReference['kind'];
/** Every capability's audit violations (ADR 067). */
export type MoneyViolationCode = { [K in MoneyCapabilityName]: CodeOf<MoneyCapabilities[K]> }[MoneyCapabilityName];
/** One capability's part of an audit run, with its own codes and figures. */
export type MoneyAuditors = { [K in MoneyCapabilityName]: ReturnType<MoneyCapabilities[K]['startAudit']> };
/** Every capability's audit figures, under its name. */
export type MoneyFigures = { [K in MoneyCapabilityName]: ReturnType<MoneyAuditors[K]['figures']> };

export const moneyCapabilityNames: readonly MoneyCapabilityName[] = [
  'checkouts',
  'refunds',
  'purchases',
  'payouts',
  'subscriptions',
  'invoices',
];

/** The capabilities as the list iterates them, each seen through the shape every one of them has. */
const capabilities: readonly MoneyCapability<TransferReference, PurposeShape, PurposeShape, string, unknown>[] =
  Object.values(MONEY_CAPABILITIES);

export const transferReferenceKinds: readonly TransferReferenceKind[] = Object.values(MONEY_CAPABILITIES).flatMap(
  (capability): readonly TransferReferenceKind[] => capability.kinds,
);

const capabilityOfKind = new Map<string, MoneyCapabilities[MoneyCapabilityName]>();
for (const capability of Object.values(MONEY_CAPABILITIES)) for (const kind of capability.kinds) capabilityOfKind.set(kind, capability);

/**
 * A recorded reference read strictly: one of the kinds, with exactly the fields its capability
 * gives it; undefined when no capability has its kind and fields.
 */
export function toKnownTransferReference(reference: unknown): KnownTransferReference | undefined {
  const kind = typeof reference === 'object' && reference !== null && 'kind' in reference ? reference.kind : undefined;
  return typeof kind === 'string' ? capabilityOfKind.get(kind)?.parse(reference) : undefined;
}

/**
 * The wallet's terms of every kind (ADR 077), handed to the wallet by the composition root: the
 * wallet refuses a kind that is not here and folds each kind's effect on bought MLX's hold.
 */
export const transferTermsBook: TransferTermsBook = new Map(capabilities.flatMap((capability) => Object.entries(capability.terms)));

/** The capability a known reference belongs to (the history's purpose reads it). */
export const moneyCapabilityOf = (reference: KnownTransferReference): MoneyCapabilities[MoneyCapabilityName] | undefined =>
  capabilityOfKind.get(reference.kind);
