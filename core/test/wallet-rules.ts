/**
 * The wallet's pure rules bound to the one book of transfer terms production uses (ADR 077), for
 * tests: a test decides and folds exactly as the composition root's wallet does, without passing
 * the book at every call.
 */
import { transferTermsBook } from '../src/transfer-references/known.js';
import type { ReserveTransfer, WalletCommand } from '../src/wallet/commands.js';
import * as decider from '../src/wallet/decider.js';
import type { WalletEvent } from '../src/wallet/events.js';
import * as fold from '../src/wallet/state.js';
import type { WalletState } from '../src/wallet/state.js';

export { transferTermsBook };

export const decide = (command: WalletCommand, state: WalletState, now: Date): decider.WalletDecision =>
  decider.decide(command, state, now, transferTermsBook);

export const decideTransfer = (command: ReserveTransfer, payer: WalletState, payee: WalletState, now: Date): decider.TransferDecision =>
  decider.decideTransfer(command, payer, payee, now, transferTermsBook);

export const evolve = (state: WalletState, event: WalletEvent): WalletState => fold.evolve(state, event, transferTermsBook);

export const foldWallet = (events: Iterable<WalletEvent>): WalletState => fold.foldWallet(events, transferTermsBook);
