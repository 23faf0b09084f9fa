/**
 * The wallet use cases as the api offers them. Writes go through the core handlers (the event
 * log); reads come from the Redis read models, after waiting for them to include the caller's
 * own last write, so a send shows on the dashboard that asked for it (read-your-writes).
 */
import { AppError } from '@quern/core';
import {
  currentExchangeRate,
  openUserWallet,
  type BalanceOutput,
  type PurchaseHoldOutput,
  type ReceiveOutput,
  toPaymentUri,
  readWallet,
  sendMlx,
  toPurchaseHoldOutput,
  type SendCommandInput,
  type SendOutput,
  type WalletDeps,
  walletAddressOf,
  lookUpRecipient,
  type Recipient,
  type RecipientLookup,
} from '@quern/core/wallet';
import { findTransaction, getPendingTotals, getPendingTransactions, getTransactionsPage, getWalletBalance } from '@quern/projections';
import type { Redis } from 'ioredis';
import type { Session } from '../identity/sessions.js';
import { qrCodeSvg } from '../http/qr-code.js';
import { createSendAdmission, type SendAdmissionLimits } from './send-admission.js';
import type { CheckoutLookupLimits } from '../checkout/lookup-limits.js';
import {
  TRANSACTIONS_PAGE_SIZE,
  type PendingTransactions,
  type TransactionItem,
  type TransactionsPage,
  type HistoryFilter,
} from '@quern/core/history';

export interface WalletServiceDeps {
  core: WalletDeps;
  redis: Redis;
  /** Resolves when the read models include the given log position (or the wait timed out). */
  waitForReadModels: (position: bigint) => Promise<void>;
  /** Back-pressure bounds for sends (see send-admission.ts); defaults when absent. */
  sendAdmission?: SendAdmissionLimits;
  /**
   * The hourly bounds on telling who a username, e-mail or address is (ADR 043): the send form's
   * recipient lookup shares them with the checkout popup's merchant lookup, one budget for both.
   */
  lookupLimits: CheckoutLookupLimits;
}

export type WalletService = ReturnType<typeof createWalletService>;

/** Wallet addresses kept in memory; the oldest is dropped past this. */
const ADDRESS_CACHE_MAX = 100_000;
/** The last log position each user wrote, so their next read waits for it. Bounded. */
const LAST_WRITES_MAX = 10_000;

export function createWalletService(deps: WalletServiceDeps) {
  const admission = createSendAdmission(deps.sendAdmission);
  const lastWrite = new Map<string, bigint>();
  const remember = (userId: string, position: bigint | undefined) => {
    if (position === undefined) return;
    if (lastWrite.size >= LAST_WRITES_MAX) lastWrite.delete(lastWrite.keys().next().value as string);
    lastWrite.set(userId, position);
  };
  const caughtUpWith = async (userId: string) => {
    const position = lastWrite.get(userId);
    if (position !== undefined) await deps.waitForReadModels(position);
  };
  const caughtUp = (session: Session) => caughtUpWith(session.userId);

  // An address never changes once its wallet is open, so it is cached: folding a long wallet
  // stream on every dashboard request would make reads cost O(history).
  const addresses = new Map<string, string>();
  /** A user's wallet address; opens the wallet when registration could not (opening is idempotent). */
  async function openFor(userId: string): Promise<{ address: string }> {
    const cached = addresses.get(userId);
    if (cached) return { address: cached };
    const address = (await walletAddressOf(deps.core, userId)) ?? (await openUserWallet(deps.core, userId));
    if (addresses.size >= ADDRESS_CACHE_MAX) addresses.delete(addresses.keys().next().value as string);
    addresses.set(userId, address);
    return { address };
  }
  const address = (session: Session) => openFor(session.userId);

  return {
    openFor,
    address,
    /**
     * Who a send to `to` would reach, for the send form's summary; an unknown username or e-mail
     * is an answer, not an error (Send itself refuses it).
     */
    async recipient(session: Session, clientIp: string, to: Recipient): Promise<RecipientLookup> {
      await deps.lookupLimits.count(session.userId, clientIp);
      return lookUpRecipient(deps.core, to);
    },
    /** A write made elsewhere (a purchase's credit) that the user's next read should wait for. */
    noteWrite: remember,
    /** Resolves once the read models hold the user's last write (another service's reads wait on it too). */
    awaitOwnWrites: caughtUpWith,

    async balance(session: Session, ofAddress?: string): Promise<BalanceOutput> {
      const own = await address(session);
      // Balances are private: the REST path names an address, and it must be the caller's.
      if (ofAddress !== undefined && ofAddress !== own.address) throw new AppError('FORBIDDEN', 'errors:forbidden');
      await caughtUp(session);
      const balance = (await getWalletBalance(deps.redis, session.userId)) ?? { stable: '0', unstable: '0' };
      const pending = await getPendingTotals(deps.redis, session.userId);
      return { ...balance, pending_incoming: pending.incoming, pending_outgoing: pending.outgoing };
    },

    /** MLX bought with PayPal that cannot be sent or paid out yet, and until when (ADR 047); from the log, not a read model. */
    async purchaseHold(session: Session): Promise<PurchaseHoldOutput> {
      await address(session);
      const { state } = await readWallet(deps.core, session.userId);
      return toPurchaseHoldOutput(state, deps.core.clock.now());
    },

    /** The caller's address as a payment request (ADR 079), with the amount asked for when there is one, and its QR code. */
    async receive(session: Session, amountMlx: bigint | undefined): Promise<ReceiveOutput> {
      const own = await address(session);
      const paymentUri = toPaymentUri(amountMlx === undefined ? { address: own.address } : { address: own.address, amountMlx });
      return { address: own.address, payment_uri: paymentUri, qr_svg: await qrCodeSvg(paymentUri) };
    },

    async rate(): Promise<{ rate: string | null }> {
      const rate = await currentExchangeRate(deps.core.store);
      return { rate: rate?.usdPerMlx ?? null };
    },

    async pending(session: Session): Promise<PendingTransactions> {
      await caughtUp(session);
      return { content: await getPendingTransactions(deps.redis, session.userId) };
    },

    async transactions(session: Session, page: number, filter?: HistoryFilter): Promise<TransactionsPage> {
      await caughtUp(session);
      return getTransactionsPage(deps.redis, session.userId, page, TRANSACTIONS_PAGE_SIZE, filter);
    },

    /** One of the caller's transactions by its hash (the detail's own URL); NOT_FOUND when it is not theirs or unknown. */
    async transaction(session: Session, transactionHash: string): Promise<{ transaction: TransactionItem }> {
      await caughtUp(session);
      const found = await findTransaction(deps.redis, session.userId, transactionHash);
      if (found === null) throw new AppError('NOT_FOUND', 'errors:transactionNotFound');
      return { transaction: found };
    },

    async send(session: Session, input: SendCommandInput, idempotencyKey?: string): Promise<SendOutput> {
      await address(session);
      const result = await admission.run(session.userId, () => sendMlx(deps.core, session.userId, input, idempotencyKey));
      remember(session.userId, result.position);
      return { transferId: result.transferId, status: result.status };
    },
  };
}
