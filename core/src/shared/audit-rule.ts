/**
 * The shapes a capability's audit rule is written in (ADR 067). They live below every capability
 * so that a capability can state its rule without importing the ledger audit (core/src/audit/),
 * which sits above them all and runs the rules over the log.
 */

/** The part of a recorded event the audit reads (RecordedEvent from the event-store port fits). */
export interface LedgerRecord {
  streamId: string;
  type: string;
  data: unknown;
  position?: bigint;
}

/** Where a violation was seen; `position` is the event's global log position as decimal text. */
export interface AuditWhere {
  streamId?: string;
  transferId?: string;
  depositId?: string;
  position?: string;
}

export type AuditReport<Code extends string> = (code: Code, message: string, where?: AuditWhere) => void;

/** What every transfer reference has: the kind that names the capability it belongs to. */
export interface TransferReferenceShape {
  kind: string;
}

/** A wallet transfer as its reservation recorded it, with the reference it carries. */
export interface ReferencedTransfer<Reference extends TransferReferenceShape> {
  reference: Reference;
  payerWalletId: string;
  payeeWalletId: string | undefined;
  /** The millix address of an external send; undefined for an internal one. */
  toAddress: string | undefined;
  amountMlx: bigint;
  feeMlx: bigint;
}

/**
 * The claims-versus-transfers check of one capability: its events claim transfers (by id), and
 * the wallet transfers carrying its reference kinds must be exactly the claimed ones.
 */
export interface TransferClaimRule<Code extends string, Claim, Reference extends TransferReferenceShape> {
  /** The violation reported for a transfer no claim matches and for a claim no transfer made. */
  mismatch: Code;
  isOwnReference(reference: TransferReferenceShape): reference is Reference;
  matches(claim: Claim, transfer: ReferencedTransfer<Reference>): boolean;
  unmatchedMessage(transferId: string, transfer: ReferencedTransfer<Reference>): string;
  neverMadeMessage(transferId: string, claim: Claim): string;
}

/**
 * One stage of a deposit from the millix network as the ledger accepted it in a wallet stream:
 * received (seen, not stable), then confirmed (the MLX are the wallet's) or rejected. The address
 * and amount are the DepositReceived's, which the later stages repeat. A capability whose payments
 * arrive as deposits to addresses of a wallet reads them here, since it cannot read wallet streams.
 */
export interface DepositStage {
  walletId: string;
  depositId: string;
  toAddress: string;
  amountMlx: bigint;
  stage: 'received' | 'confirmed' | 'rejected';
}

/** What the ledger knows at the end of the log that a capability's final checks may ask. */
export interface LedgerOutcomes {
  /** How a wallet transfer stands: reserved (in flight), posted or voided; undefined when never reserved. */
  transferStatus(transferId: string): 'reserved' | 'posted' | 'voided' | undefined;
}

/** Where a capability's checks record the transfers its events claim. */
export interface ClaimBook<Claim> {
  isClaimed(transferId: string): boolean;
  claim(transferId: string, claim: Claim): void;
}

/** A capability's own checks over its streams, for one audit run. */
export interface CapabilityAudit<Code extends string, Figures> {
  addRecord(record: LedgerRecord, where: AuditWhere): void;
  /** Each deposit stage the ledger accepted, in log order; for a capability paid by deposits. */
  addDeposit?(deposit: DepositStage, where: AuditWhere): void;
  /** End-of-log checks of its own, reported before the claims are matched with the transfers. */
  finalCheck?(report: AuditReport<Code>, ledger: LedgerOutcomes): void;
  figures(): Figures;
}

/** What a capability contributes to the ledger audit: the records it reads, its claims, its checks. */
/** How the audit command writes an amount of MLX ('1,234 MLX'). */
export type MlxText = (amountMlx: bigint) => string;

export interface CapabilityAuditRule<Code extends string, Claim, Reference extends TransferReferenceShape, Figures> {
  readsRecord(record: LedgerRecord): boolean;
  /** Its figures as the audit command prints them, for the operator (English), a line each. */
  describe(figures: Figures, mlx: MlxText): string[];
  transfers: TransferClaimRule<Code, Claim, Reference>;
  start(report: AuditReport<Code>, claims: ClaimBook<Claim>): CapabilityAudit<Code, Figures>;
}
