/**
 * Wallet commands: what a handler asks the decider to do to one wallet stream. Amounts are
 * bigint here (commands never cross the wire; contracts.ts turns wire input into them). Ids are
 * made by the caller (UUIDs for transfers, the network's transaction hash and output for
 * deposits), so a retried command carries the same id and is recognised.
 */
import type { DepositRejectReason, TransferVoidReason, WalletCloseReason, WalletKind } from './events.js';
import type { TransferReference } from './transfer-reference.js';

export interface OpenWallet {
  type: 'OpenWallet';
  /** System kinds must use their SYSTEM_WALLET_IDS id; a user wallet needs its owner. */
  data: { walletId: string; kind: WalletKind; address: string; ownerUserId?: string };
}

/** Genesis only, once: brings the supply into existence. */
export interface MintSupply {
  type: 'MintSupply';
  data: { amountMlx: bigint };
}

/** Phase one of a send, on the payer's stream. */
export interface ReserveTransfer {
  type: 'ReserveTransfer';
  data: {
    transferId: string;
    /** The REST Idempotency-Key header (or the web client's own key): a retry emits nothing. */
    idempotencyKey?: string;
    toAddress: string;
    /** Set by the handler when toAddress (or the username or e-mail typed) is a Quern wallet. */
    toWalletId?: string;
    amountMlx: bigint;
    /**
     * Must be SEND_FEE_MLX: the fee is part of what the user confirmed, so it is checked, not
     * assumed. A purchase's transfers (with `reference`) carry no fee: 0.
     */
    feeMlx: bigint;
    /**
     * The purchase this transfer credits or takes back (ADR 025). Only for transfers between
     * Quern wallets settled at once (executeTransfer): from the reserve for a purchase, to it for
     * a refund or reversal.
     */
    reference?: TransferReference;
    /**
     * A purchase's credit only (reference kind `purchase`): until when the buyer may not send or
     * pay out the credited MLX (ISO 8601; the purchase handler adds PURCHASE_HOLD_HOURS to now).
     */
    holdUntil?: string;
  };
}

/** Settlement, on the payee's stream. Idempotent by transfer id. */
export interface CreditTransfer {
  type: 'CreditTransfer';
  data: { transferId: string; fromWalletId: string; fromAddress: string; amountMlx: bigint };
}

/** Settlement, on the payer's stream: after the credit (internal) or the network submission (external). */
export interface PostTransfer {
  type: 'PostTransfer';
  /** Required for external sends (the millix transaction); refused for internal ones. */
  data: { transferId: string; networkTransactionHash?: string };
}

export interface VoidTransfer {
  type: 'VoidTransfer';
  data: { transferId: string; reason: TransferVoidReason };
}

export interface ReceiveDeposit {
  type: 'ReceiveDeposit';
  data: {
    depositId: string;
    networkTransactionHash: string;
    fromAddress: string;
    amountMlx: bigint;
    /**
     * The address paid: the wallet's own, or another address of the same millix wallet (same key
     * identifier and network, another base: an invoice's, issue 27). The wallet's own when absent.
     */
    toAddress?: string;
  };
}

export interface ConfirmDeposit {
  type: 'ConfirmDeposit';
  data: { depositId: string };
}

export interface RejectDeposit {
  type: 'RejectDeposit';
  data: { depositId: string; reason: DepositRejectReason };
}

/**
 * Closes a user's wallet for good (ADR 042): only when it is empty (nothing posted, held or
 * pending, no open reservation). Closing a closed wallet decides nothing.
 */
export interface CloseWallet {
  type: 'CloseWallet';
  data: { reason: WalletCloseReason };
}

export type WalletCommand =
  | OpenWallet
  | MintSupply
  | ReserveTransfer
  | CreditTransfer
  | PostTransfer
  | VoidTransfer
  | ReceiveDeposit
  | ConfirmDeposit
  | RejectDeposit
  | CloseWallet;
