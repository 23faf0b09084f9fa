// Proves each wallet command's decision: the events it emits, the retries it answers with nothing, and every input it refuses.
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { deriveAddress } from './address.js';
import { fromWalletSnapshot, toWalletSnapshot } from './snapshot.js';
import type { WalletCommand } from './commands.js';
import { OPEN_RESERVATIONS_MAX } from './decider.js';
import type { WalletEvent } from './events.js';
import { SYSTEM_WALLET_IDS } from './events.js';
import { MLX_TOTAL_SUPPLY } from './money.js';
import type { WalletState } from './state.js';
import { availableMlx, balanceOf } from './state.js';
import { alice, bob, credited, NOW, opened, testAddress } from '../../test/wallet-fixtures.js';
import { decide, foldWallet } from '../../test/wallet-rules.js';

const external = testAddress(3);
const at = NOW.toISOString();

const given = (...events: WalletEvent[]): WalletState => foldWallet(events);
const reserve = (data: Partial<Extract<WalletCommand, { type: 'ReserveTransfer' }>['data']> = {}): WalletCommand => ({
  type: 'ReserveTransfer',
  data: { transferId: 't1', toAddress: bob.address, toWalletId: bob.walletId, amountMlx: 5000n, feeMlx: 1000n, ...data },
});

function refusal(command: WalletCommand, state: WalletState): AppError {
  try {
    decide(command, state, NOW);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the command to be refused');
}

describe('OpenWallet', () => {
  const open: WalletCommand = {
    type: 'OpenWallet',
    data: { walletId: alice.walletId, kind: 'user', address: alice.address, ownerUserId: 'u1' },
  };

  it('given no wallet, when opened, then WalletOpened records kind, address and owner', () => {
    expect(decide(open, given(), NOW).events).toEqual([
      { type: 'WalletOpened', data: { walletId: alice.walletId, kind: 'user', address: alice.address, ownerUserId: 'u1', openedAt: at } },
    ]);
  });

  it('given the same wallet open, when opened again identically, then nothing happens; differently, then CONFLICT', () => {
    const state = given(...decide(open, given(), NOW).events);
    expect(decide(open, state, NOW).events).toEqual([]);
    expect(refusal({ ...open, data: { ...open.data, address: bob.address } }, state).code).toBe('CONFLICT');
  });

  it('given bad input, when opening, then the address, system id and owner rules refuse it', () => {
    expect(refusal({ ...open, data: { ...open.data, address: 'nope' } }, given()).messageKey).toBe('errors:invalidAddress');
    expect(refusal({ type: 'OpenWallet', data: { walletId: 'fees', kind: 'fee', address: alice.address } }, given()).messageKey).toBe(
      'errors:invalidRequest',
    );
    expect(refusal({ type: 'OpenWallet', data: { walletId: 'w', kind: 'user', address: alice.address } }, given()).messageKey).toBe(
      'errors:invalidRequest',
    );
    expect(refusal({ ...open, data: { ...open.data, walletId: 'has space' } }, given()).messageKey).toBe('errors:invalidRequest');
  });
});

describe('MintSupply', () => {
  const genesis = { walletId: SYSTEM_WALLET_IDS.genesis, address: testAddress(9) };

  it('given the genesis wallet, when minting, then SupplyMinted; a retry is answered, another amount refused', () => {
    const mint: WalletCommand = { type: 'MintSupply', data: { amountMlx: MLX_TOTAL_SUPPLY } };
    const events = decide(mint, given(opened(genesis, 'genesis')), NOW).events;
    expect(events).toEqual([
      {
        type: 'SupplyMinted',
        data: {
          walletId: genesis.walletId,
          amountMlx: '9000000000000000',
          toAddress: genesis.address,
          mintedAt: at,
          balanceAfter: { postedMlx: '9000000000000000', heldMlx: '0', pendingCreditMlx: '0' },
        },
      },
    ]);
    const state = given(opened(genesis, 'genesis'), ...events);
    expect(decide(mint, state, NOW).events).toEqual([]);
    expect(refusal({ type: 'MintSupply', data: { amountMlx: 1n } }, state).code).toBe('CONFLICT');
  });

  it('given a user wallet or a bad amount, when minting, then it is refused', () => {
    expect(refusal({ type: 'MintSupply', data: { amountMlx: 1n } }, given(opened())).code).toBe('FORBIDDEN');
    expect(refusal({ type: 'MintSupply', data: { amountMlx: MLX_TOTAL_SUPPLY + 1n } }, given(opened(genesis, 'genesis'))).messageKey).toBe(
      'errors:amountTooLarge',
    );
    expect(refusal({ type: 'MintSupply', data: { amountMlx: 0n } }, given(opened(genesis, 'genesis'))).messageKey).toBe(
      'errors:invalidAmount',
    );
  });
});

describe('ReserveTransfer', () => {
  it('given 10,000 MLX, when sending 5,000 to a Quern wallet, then a hold of amount + fee is reserved', () => {
    const decision = decide(reserve({ idempotencyKey: 'key-1' }), given(opened(), credited(10_000n)), NOW);
    expect(decision.transferId).toBe('t1');
    expect(decision.events).toEqual([
      {
        type: 'TransferReserved',
        data: {
          walletId: alice.walletId,
          transferId: 't1',
          fromAddress: alice.address,
          toAddress: bob.address,
          toWalletId: bob.walletId,
          amountMlx: '5000',
          feeMlx: '1000',
          idempotencyKey: 'key-1',
          reservedAt: at,
          balanceAfter: { postedMlx: '10000', heldMlx: '6000', pendingCreditMlx: '0' },
        },
      },
    ]);
    const after = given(opened(), credited(10_000n), ...decision.events);
    expect([after.postedBalanceMlx, after.pendingDebitsMlx, availableMlx(after)]).toEqual([10_000n, 6000n, 4000n]);
  });

  it('given exactly amount + fee available, when sending, then it is reserved; one more MLX is refused', () => {
    expect(decide(reserve({ amountMlx: 9000n }), given(opened(), credited(10_000n)), NOW).events).toHaveLength(1);
    const error = refusal(reserve({ amountMlx: 9001n }), given(opened(), credited(10_000n)));
    expect([error.code, error.messageKey, error.params]).toEqual([
      'CONFLICT',
      'errors:insufficientFunds',
      { requiredMlx: '10001', availableMlx: '10000' },
    ]);
  });

  it('given holds already placed, when sending more than what is left, then insufficient funds', () => {
    const state = given(opened(), credited(10_000n), ...decide(reserve(), given(opened(), credited(10_000n)), NOW).events);
    expect(refusal(reserve({ transferId: 't2', amountMlx: 3001n }), state).messageKey).toBe('errors:insufficientFunds');
    expect(decide(reserve({ transferId: 't2', amountMlx: 3000n }), state, NOW).events).toHaveLength(1);
  });

  it('given a reserved send, when retried with the same idempotency key and a new transfer id, then nothing is emitted and the first id returns', () => {
    const first = decide(reserve({ idempotencyKey: 'key-1' }), given(opened(), credited(6000n)), NOW);
    const state = given(opened(), credited(6000n), ...first.events);
    // The balance is now all held, yet the retry still gets the first answer rather than "insufficient funds".
    const retry = decide(reserve({ idempotencyKey: 'key-1', transferId: 't-retry' }), state, NOW);
    expect(retry).toEqual({ events: [], transferId: 't1' });
    expect(decide(reserve(), state, NOW)).toEqual({ events: [], transferId: 't1' });
  });

  it('given a reserved send, when its key or id is reused with other details, then CONFLICT', () => {
    const state = given(
      opened(),
      credited(20_000n),
      ...decide(reserve({ idempotencyKey: 'key-1' }), given(opened(), credited(20_000n)), NOW).events,
    );
    expect(refusal(reserve({ idempotencyKey: 'key-1', transferId: 't2', amountMlx: 5001n }), state).messageKey).toBe(
      'errors:idempotencyConflict',
    );
    expect(refusal(reserve({ toAddress: external, toWalletId: undefined }), state).messageKey).toBe('errors:idempotencyConflict');
  });

  it('given invalid amounts, when sending, then invalidAmount or amountTooLarge names the amount field', () => {
    const state = given(opened(), credited(10_000n));
    for (const amountMlx of [0n, -1n]) expect(refusal(reserve({ amountMlx }), state).fields).toEqual({ amount: 'errors:invalidAmount' });
    expect(refusal(reserve({ amountMlx: 5 as unknown as bigint }), state).messageKey).toBe('errors:invalidAmount');
    expect(refusal(reserve({ amountMlx: MLX_TOTAL_SUPPLY + 1n }), state).messageKey).toBe('errors:amountTooLarge');
  });

  it('given a fee other than 1000, when sending, then invalidFee', () => {
    for (const feeMlx of [0n, 999n, 1001n])
      expect(refusal(reserve({ feeMlx }), given(opened(), credited(10_000n))).messageKey).toBe('errors:invalidFee');
  });

  it('given a bad payee, when sending, then invalidAddress or cannotSendToSelf', () => {
    const state = given(opened(), credited(10_000n));
    expect(refusal(reserve({ toAddress: 'x' }), state).fields).toEqual({ to: 'errors:invalidAddress' });
    expect(refusal(reserve({ toAddress: testAddress(2, 'testnet') }), state).messageKey).toBe('errors:invalidAddress');
    expect(refusal(reserve({ toWalletId: alice.walletId }), state).messageKey).toBe('errors:cannotSendToSelf');
    expect(refusal(reserve({ toAddress: alice.address, toWalletId: undefined }), state).messageKey).toBe('errors:cannotSendToSelf');
  });

  it('given an external address, when sending, then the reservation has no payee wallet', () => {
    const [event] = decide(reserve({ toAddress: external, toWalletId: undefined }), given(opened(), credited(10_000n)), NOW).events;
    expect(event?.type).toBe('TransferReserved');
    expect(event?.data).not.toHaveProperty('toWalletId');
  });

  it('given no wallet, a fee wallet or a malformed id, when sending, then NOT_FOUND, FORBIDDEN or invalidRequest', () => {
    expect(refusal(reserve(), given()).code).toBe('NOT_FOUND');
    expect(refusal(reserve(), given(opened({ walletId: SYSTEM_WALLET_IDS.fee, address: alice.address }, 'fee'))).code).toBe('FORBIDDEN');
    expect(refusal(reserve({ transferId: '' }), given(opened(), credited(10_000n))).messageKey).toBe('errors:invalidRequest');
    expect(refusal(reserve({ idempotencyKey: 'has space' }), given(opened(), credited(10_000n))).messageKey).toBe('errors:invalidRequest');
  });

  it(`given ${OPEN_RESERVATIONS_MAX} open reservations, when sending once more, then RATE_LIMITED`, () => {
    const events: WalletEvent[] = [opened(), credited(10_000_000n)];
    for (let i = 0; i < OPEN_RESERVATIONS_MAX; i += 1) {
      events.push(...decide(reserve({ transferId: `t${i}`, amountMlx: 1n }), given(...events), NOW).events);
    }
    expect(refusal(reserve({ transferId: 'one-more', amountMlx: 1n }), given(...events)).code).toBe('RATE_LIMITED');
  });

  it('given a state, when deciding, then the state is not changed', () => {
    const state = given(opened(), credited(10_000n));
    decide(reserve(), state, NOW);
    expect([state.pendingDebitsMlx, state.transfers.size, state.eventCount]).toEqual([0n, 1, 2]);
  });

  it('given an invalid time, when deciding, then it throws', () => {
    expect(() => decide(reserve(), given(opened(), credited(10_000n)), new Date(Number.NaN))).toThrow(TypeError);
  });
});

describe('CreditTransfer', () => {
  const creditBob: WalletCommand = {
    type: 'CreditTransfer',
    data: { transferId: 't1', fromWalletId: alice.walletId, fromAddress: alice.address, amountMlx: 5000n },
  };

  it('given the payee wallet, when credited, then TransferCredited posts the amount; a retry emits nothing', () => {
    const events = decide(creditBob, given(opened(bob)), NOW).events;
    expect(events).toEqual([
      {
        type: 'TransferCredited',
        data: {
          walletId: bob.walletId,
          transferId: 't1',
          fromWalletId: alice.walletId,
          fromAddress: alice.address,
          toAddress: bob.address,
          amountMlx: '5000',
          creditedAt: at,
          balanceAfter: { postedMlx: '5000', heldMlx: '0', pendingCreditMlx: '0' },
        },
      },
    ]);
    const state = given(opened(bob), ...events);
    expect(state.postedBalanceMlx).toBe(5000n);
    expect(decide(creditBob, state, NOW).events).toEqual([]);
    expect(refusal({ ...creditBob, data: { ...creditBob.data, amountMlx: 1n } }, state).code).toBe('CONFLICT');
  });

  it('given no payee wallet or the fee account, when credited, then unknownRecipient or FORBIDDEN (the worker voids)', () => {
    expect(refusal(creditBob, given())).toMatchObject({ code: 'NOT_FOUND', messageKey: 'errors:unknownRecipient' });
    expect(refusal(creditBob, given(opened({ walletId: SYSTEM_WALLET_IDS.fee, address: bob.address }, 'fee'))).code).toBe('FORBIDDEN');
  });

  it('given a credit from the wallet itself, when credited, then it is refused', () => {
    expect(refusal({ ...creditBob, data: { ...creditBob.data, fromWalletId: bob.walletId } }, given(opened(bob))).messageKey).toBe(
      'errors:cannotSendToSelf',
    );
  });
});

describe('PostTransfer and VoidTransfer', () => {
  const reservedTo = (toWalletId?: string) => {
    const base = given(opened(), credited(10_000n));
    const toAddress = toWalletId ? bob.address : external;
    return given(opened(), credited(10_000n), ...decide(reserve({ toWalletId, toAddress }), base, NOW).events);
  };

  it('given an internal reservation, when posted, then the debit settles once; posting again emits nothing', () => {
    const events = decide({ type: 'PostTransfer', data: { transferId: 't1' } }, reservedTo(bob.walletId), NOW).events;
    expect(events).toEqual([
      {
        type: 'TransferPosted',
        data: {
          walletId: alice.walletId,
          transferId: 't1',
          fromAddress: alice.address,
          toAddress: bob.address,
          toWalletId: bob.walletId,
          amountMlx: '5000',
          feeMlx: '1000',
          postedAt: at,
          balanceAfter: { postedMlx: '4000', heldMlx: '0', pendingCreditMlx: '0' },
        },
      },
    ]);
    const state = given(opened(), credited(10_000n), ...decide(reserve(), given(opened(), credited(10_000n)), NOW).events, ...events);
    expect([state.postedBalanceMlx, state.pendingDebitsMlx, balanceOf(state).stableMlx]).toEqual([4000n, 0n, 4000n]);
    expect(decide({ type: 'PostTransfer', data: { transferId: 't1' } }, state, NOW).events).toEqual([]);
    expect(refusal({ type: 'VoidTransfer', data: { transferId: 't1', reason: 'expired' } }, state).messageKey).toBe(
      'errors:alreadySettled',
    );
  });

  it('given an external reservation, when posted, then it needs the network transaction hash; an internal one refuses it', () => {
    expect(refusal({ type: 'PostTransfer', data: { transferId: 't1' } }, reservedTo()).messageKey).toBe('errors:invalidRequest');
    const [posted] = decide(
      { type: 'PostTransfer', data: { transferId: 't1', networkTransactionHash: 'abc123' } },
      reservedTo(),
      NOW,
    ).events;
    expect(posted?.type === 'TransferPosted' && posted.data.networkTransactionHash).toBe('abc123');
    expect(
      refusal({ type: 'PostTransfer', data: { transferId: 't1', networkTransactionHash: 'abc123' } }, reservedTo(bob.walletId)).code,
    ).toBe('VALIDATION');
  });

  it('given a reservation, when voided, then the hold is released once; posting it afterwards is refused', () => {
    const voided = decide(
      { type: 'VoidTransfer', data: { transferId: 't1', reason: 'recipientNotFound' } },
      reservedTo(bob.walletId),
      NOW,
    ).events;
    expect(voided).toEqual([
      {
        type: 'TransferVoided',
        data: {
          walletId: alice.walletId,
          transferId: 't1',
          toWalletId: bob.walletId,
          amountMlx: '5000',
          feeMlx: '1000',
          reason: 'recipientNotFound',
          voidedAt: at,
          balanceAfter: { postedMlx: '10000', heldMlx: '0', pendingCreditMlx: '0' },
        },
      },
    ]);
    const state = given(opened(), credited(10_000n), ...decide(reserve(), given(opened(), credited(10_000n)), NOW).events, ...voided);
    expect([state.postedBalanceMlx, state.pendingDebitsMlx]).toEqual([10_000n, 0n]);
    expect(decide({ type: 'VoidTransfer', data: { transferId: 't1', reason: 'recipientNotFound' } }, state, NOW).events).toEqual([]);
    expect(refusal({ type: 'PostTransfer', data: { transferId: 't1' } }, state).code).toBe('CONFLICT');
  });

  it('given an external reservation, when voided or posted, then the void names no payee wallet and the post names the payer address', () => {
    const [voided] = decide({ type: 'VoidTransfer', data: { transferId: 't1', reason: 'networkRejected' } }, reservedTo(), NOW).events;
    expect(voided?.type).toBe('TransferVoided');
    expect(voided?.data).not.toHaveProperty('toWalletId');
    const [posted] = decide(
      { type: 'PostTransfer', data: { transferId: 't1', networkTransactionHash: 'abc123' } },
      reservedTo(),
      NOW,
    ).events;
    expect(posted?.data).toMatchObject({ fromAddress: alice.address, toAddress: external });
    expect(posted?.data).not.toHaveProperty('toWalletId');
  });

  it('given an unknown transfer, an incoming one or a bad reason, when settling, then refused', () => {
    expect(refusal({ type: 'PostTransfer', data: { transferId: 'nope' } }, reservedTo()).code).toBe('NOT_FOUND');
    expect(refusal({ type: 'PostTransfer', data: { transferId: 'funding' } }, reservedTo()).code).toBe('NOT_FOUND');
    expect(refusal({ type: 'VoidTransfer', data: { transferId: 't1', reason: 'because' as 'expired' } }, reservedTo()).messageKey).toBe(
      'errors:invalidRequest',
    );
  });
});

describe('deposits', () => {
  const receive: WalletCommand = {
    type: 'ReceiveDeposit',
    data: { depositId: 'abc123:0', networkTransactionHash: 'abc123', fromAddress: external, amountMlx: 7000n },
  };

  it('given a user wallet, when a deposit arrives, then it is pending until confirmed, and not spendable', () => {
    const received = decide(receive, given(opened()), NOW).events;
    expect(received).toEqual([
      {
        type: 'DepositReceived',
        data: {
          walletId: alice.walletId,
          depositId: 'abc123:0',
          networkTransactionHash: 'abc123',
          fromAddress: external,
          toAddress: alice.address,
          amountMlx: '7000',
          claimed: true,
          receivedAt: at,
          balanceAfter: { postedMlx: '0', heldMlx: '0', pendingCreditMlx: '7000' },
        },
      },
    ]);
    const pending = given(opened(), ...received);
    expect(balanceOf(pending)).toEqual({ stableMlx: 0n, unstableMlx: 7000n });
    expect(refusal(reserve({ amountMlx: 1n }), pending).messageKey).toBe('errors:insufficientFunds');
    const confirmed = decide({ type: 'ConfirmDeposit', data: { depositId: 'abc123:0' } }, pending, NOW).events;
    expect(confirmed).toEqual([
      {
        type: 'DepositConfirmed',
        data: {
          walletId: alice.walletId,
          depositId: 'abc123:0',
          networkTransactionHash: 'abc123',
          fromAddress: external,
          toAddress: alice.address,
          amountMlx: '7000',
          confirmedAt: at,
          balanceAfter: { postedMlx: '7000', heldMlx: '0', pendingCreditMlx: '0' },
        },
      },
    ]);
    expect(balanceOf(given(opened(), ...received, ...confirmed))).toEqual({ stableMlx: 7000n, unstableMlx: 0n });
  });

  it("given a deposit to another address of the same millix wallet (an invoice's), then it is recorded with the address paid; another wallet's or network's address is refused", () => {
    const invoiceAddress = deriveAddress(alice.address, new Uint8Array(20).fill(9));
    const toInvoice = { ...receive, data: { ...receive.data, toAddress: invoiceAddress } } as WalletCommand;
    const received = decide(toInvoice, given(opened()), NOW).events;
    expect(received[0]?.data).toMatchObject({ toAddress: invoiceAddress, amountMlx: '7000' });
    // Its settlement names the same address, from the wallet's state (and from a snapshot of it).
    const pending = given(opened(), ...received);
    const confirm = { type: 'ConfirmDeposit', data: { depositId: 'abc123:0' } } as WalletCommand;
    expect(decide(confirm, pending, NOW).events[0]?.data).toMatchObject({ toAddress: invoiceAddress });
    const reject = { type: 'RejectDeposit', data: { depositId: 'abc123:0', reason: 'networkInvalidated' } } as WalletCommand;
    expect(decide(reject, pending, NOW).events[0]?.data).toMatchObject({ toAddress: invoiceAddress });
    const snapshot = toWalletSnapshot(pending);
    const restored = snapshot && fromWalletSnapshot(JSON.parse(JSON.stringify(snapshot)));
    expect(restored && decide(confirm, restored.state, NOW).events[0]?.data).toMatchObject({ toAddress: invoiceAddress });
    expect(decide(reject, given(opened(), ...decide(receive, given(opened()), NOW).events), NOW).events[0]?.data).toMatchObject({
      toAddress: alice.address,
    });
    expect(
      decide({ ...receive, data: { ...receive.data, toAddress: alice.address } } as WalletCommand, given(opened()), NOW).events[0]?.data,
    ).toMatchObject({
      toAddress: alice.address,
    });
    expect(refusal({ ...receive, data: { ...receive.data, toAddress: bob.address } } as WalletCommand, given(opened())).code).toBe(
      'FORBIDDEN',
    );
    expect(
      refusal({ ...receive, data: { ...receive.data, toAddress: testAddress(5, 'testnet') } } as WalletCommand, given(opened())).messageKey,
    ).toBe('errors:invalidAddress');
  });

  it('given a received deposit, when received again, confirmed twice or rejected after confirmation, then retries are answered and contradictions refused', () => {
    const received = given(opened(), ...decide(receive, given(opened()), NOW).events);
    expect(decide(receive, received, NOW).events).toEqual([]);
    expect(refusal({ ...receive, data: { ...receive.data, amountMlx: 1n } }, received).code).toBe('CONFLICT');
    const confirmed = given(
      opened(),
      ...decide(receive, given(opened()), NOW).events,
      ...decide({ type: 'ConfirmDeposit', data: { depositId: 'abc123:0' } }, received, NOW).events,
    );
    expect(decide({ type: 'ConfirmDeposit', data: { depositId: 'abc123:0' } }, confirmed, NOW).events).toEqual([]);
    expect(refusal({ type: 'RejectDeposit', data: { depositId: 'abc123:0', reason: 'networkInvalidated' } }, confirmed).messageKey).toBe(
      'errors:alreadySettled',
    );
  });

  it('given a pending deposit, when the network invalidates it, then the pending credit is dropped', () => {
    const received = decide(receive, given(opened()), NOW).events;
    const rejected = decide(
      { type: 'RejectDeposit', data: { depositId: 'abc123:0', reason: 'networkInvalidated' } },
      given(opened(), ...received),
      NOW,
    ).events;
    expect(rejected[0]?.type).toBe('DepositRejected');
    expect(balanceOf(given(opened(), ...received, ...rejected))).toEqual({ stableMlx: 0n, unstableMlx: 0n });
  });

  it('given the fee account, an unknown deposit or bad input, when depositing, then refused', () => {
    expect(refusal(receive, given(opened({ walletId: SYSTEM_WALLET_IDS.fee, address: alice.address }, 'fee'))).code).toBe('FORBIDDEN');
    expect(refusal({ type: 'ConfirmDeposit', data: { depositId: 'nope:0' } }, given(opened())).code).toBe('NOT_FOUND');
    expect(refusal({ ...receive, data: { ...receive.data, fromAddress: 'x' } }, given(opened())).messageKey).toBe('errors:invalidAddress');
    expect(refusal({ ...receive, data: { ...receive.data, networkTransactionHash: 'not/a/hash' } }, given(opened())).messageKey).toBe(
      'errors:invalidRequest',
    );
  });
});
