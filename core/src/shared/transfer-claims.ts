/**
 * The one transfer-claim auditor (ADR 067). A capability's events claim wallet transfers (a
 * checkout payment, a refund, a payout, a purchase credit, a subscription charge name the transfer
 * that moved their MLX); the wallet's transfers carry the capability's reference. At the end of
 * the log every referenced transfer must match its claim and every claim must name a transfer
 * that was made. The rule of each capability says what "match" means and how it is worded.
 */
import type {
  AuditReport,
  MlxText,
  CapabilityAuditRule,
  ClaimBook,
  DepositStage,
  LedgerOutcomes,
  LedgerRecord,
  AuditWhere,
  ReferencedTransfer,
  TransferClaimRule,
  TransferReferenceShape,
} from './audit-rule.js';

export interface TransferClaimAuditor<Code extends string, Claim, Reference extends TransferReferenceShape> {
  book: ClaimBook<Claim>;
  addTransfer(transferId: string, transfer: ReferencedTransfer<Reference>): void;
  finalCheck(report: AuditReport<Code>): void;
}

export function createTransferClaimAuditor<Code extends string, Claim, Reference extends TransferReferenceShape>(
  rule: TransferClaimRule<Code, Claim, Reference>,
): TransferClaimAuditor<Code, Claim, Reference> {
  const claims = new Map<string, Claim>();
  const transfers = new Map<string, ReferencedTransfer<Reference>>();
  return {
    book: {
      isClaimed: (transferId) => claims.has(transferId),
      claim: (transferId, claim) => {
        claims.set(transferId, claim);
      },
    },
    addTransfer(transferId, transfer) {
      transfers.set(transferId, transfer);
    },
    finalCheck(report) {
      for (const [transferId, transfer] of transfers) {
        const claim = claims.get(transferId);
        if (claim === undefined || !rule.matches(claim, transfer))
          report(rule.mismatch, rule.unmatchedMessage(transferId, transfer), { transferId });
      }
      for (const [transferId, claim] of claims)
        if (!transfers.has(transferId)) report(rule.mismatch, rule.neverMadeMessage(transferId, claim), { transferId });
    },
  };
}

/** One capability's part of an audit run: its own checks and its claims, behind one face. */
export interface CapabilityAuditor<Code extends string, Figures> {
  readsRecord(record: LedgerRecord): boolean;
  addRecord(record: LedgerRecord, where: AuditWhere): void;
  /** A deposit stage the ledger accepted; ignored by a capability not paid by deposits. */
  addDeposit(deposit: DepositStage, where: AuditWhere): void;
  /** Takes the transfer when its reference is this capability's; says whether it did. */
  offerTransfer<Offered extends TransferReferenceShape>(transferId: string, transfer: ReferencedTransfer<Offered>): boolean;
  /** Its own end-of-log checks, then claims against transfers; reported without changing the run. */
  finalCheck(report: AuditReport<Code>, ledger: LedgerOutcomes): void;
  figures(): Figures;
  /** Its figures as the audit command prints them. */
  describe(mlx: MlxText): string[];
}

export function createCapabilityAuditor<Code extends string, Claim, Reference extends TransferReferenceShape, Figures>(
  rule: CapabilityAuditRule<Code, Claim, Reference, Figures>,
  report: AuditReport<Code>,
): CapabilityAuditor<Code, Figures> {
  const claims = createTransferClaimAuditor(rule.transfers);
  const audit = rule.start(report, claims.book);
  return {
    readsRecord: (record) => rule.readsRecord(record),
    addRecord: (record, where) => audit.addRecord(record, where),
    addDeposit: (deposit, where) => audit.addDeposit?.(deposit, where),
    offerTransfer(transferId, transfer) {
      const { reference } = transfer;
      if (!rule.transfers.isOwnReference(reference)) return false;
      claims.addTransfer(transferId, { ...transfer, reference });
      return true;
    },
    finalCheck(finalReport, ledger) {
      audit.finalCheck?.(finalReport, ledger);
      claims.finalCheck(finalReport);
    },
    figures: () => audit.figures(),
    describe: (mlx) => rule.describe(audit.figures(), mlx),
  };
}
