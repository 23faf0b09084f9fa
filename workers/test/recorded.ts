/**
 * Test support: a RecordedEvent as a store would return it, for pure tests without a store. The
 * data a test gives is laid over complete defaults for the event's type, so an event is as
 * well-formed as the deciders write it (the dispatch rules read events through core's schemas)
 * while a test names only the fields it is about.
 */
import type { RecordedEvent } from '@quern/core';

const at = '2026-01-01T00:00:00.000Z';
const wallet = { walletId: 'w1', transferId: 't1', amountMlx: '5000', feeMlx: '1000' };
const defaults: Record<string, Record<string, unknown>> = {
  UserRegistered: {
    username: 'ada_l',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '15550100',
    passwordHash: '$argon2id$v=19$test',
    registeredAt: at,
  },
  WelcomeEmailSent: { messageId: '<welcome@quern.test>', sentAt: at },
  PasswordResetRequested: { expiresAt: '2026-01-01T01:00:00.000Z', requestedAt: at },
  PasswordResetEmailSent: { messageId: '<reset@quern.test>', sentAt: at },
  TransferReserved: { ...wallet, fromAddress: 'addr-payer', toAddress: 'addr-payee', reservedAt: at },
  TransferPosted: { ...wallet, toAddress: 'addr-payee', postedAt: at },
  TransferVoided: { ...wallet, reason: 'networkRejected', voidedAt: at },
  DepositReceived: {
    walletId: 'w1',
    depositId: 'hash:0',
    networkTransactionHash: 'hash',
    fromAddress: 'addr-outside',
    toAddress: 'addr-w1',
    amountMlx: '5000',
    receivedAt: at,
  },
  DepositConfirmed: { walletId: 'w1', depositId: 'hash:0', amountMlx: '5000', confirmedAt: at },
  DepositRejected: { walletId: 'w1', depositId: 'hash:0', amountMlx: '5000', reason: 'networkInvalidated', rejectedAt: at },
};

export const recorded = (
  type: string,
  data: Record<string, unknown>,
  position = 1n,
  metadata: Record<string, unknown> = {},
): RecordedEvent => ({
  id: `event-${position}`,
  streamId: data.walletId === undefined ? `user-${String(data.userId)}` : `wallet-${String(data.walletId)}`,
  revision: 0n,
  position,
  type,
  data: { ...defaults[type], ...data },
  metadata,
  recordedAt: at,
});
