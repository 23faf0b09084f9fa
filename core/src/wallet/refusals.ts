/**
 * The wallet's typed refusals: what a caller branches on when a transfer is refused (a checkout
 * answers "not enough MLX" with the shortfall, a settlement voids a reservation whose payee was
 * closed). Each is an AppError carrying the same message key, fields and params the api shows,
 * so people see exactly what they saw before; code reads `refusal`, never the message key.
 */
import { AppError } from '../shared/errors.js';
import { mlxToWire } from './money.js';

export type TransferRefusal =
  /** The payer's available MLX does not cover amount + fee; `shortMlx` is what is missing. */
  | { kind: 'insufficientFunds'; requiredMlx: bigint; availableMlx: bigint; shortMlx: bigint }
  /** The payee's wallet was closed (ADR 042): no Quern wallet pays into it. */
  | { kind: 'recipientClosed' };

export class InsufficientFundsRefusal extends AppError {
  readonly refusal: Extract<TransferRefusal, { kind: 'insufficientFunds' }>;
  constructor(requiredMlx: bigint, availableMlx: bigint) {
    super(
      'CONFLICT',
      'errors:insufficientFunds',
      { amount: 'errors:insufficientFunds' },
      { requiredMlx: mlxToWire(requiredMlx), availableMlx: mlxToWire(availableMlx) },
    );
    this.name = 'InsufficientFundsRefusal';
    this.refusal = { kind: 'insufficientFunds', requiredMlx, availableMlx, shortMlx: requiredMlx - availableMlx };
  }
}

export class RecipientClosedRefusal extends AppError {
  readonly refusal = { kind: 'recipientClosed' } as const satisfies TransferRefusal;
  constructor() {
    super('VALIDATION', 'errors:recipientClosed', { to: 'errors:recipientClosed' });
    this.name = 'RecipientClosedRefusal';
  }
}

/** The typed refusal an error carries, when it is one of the wallet's; undefined otherwise. */
export function transferRefusalOf(error: unknown): TransferRefusal | undefined {
  if (error instanceof InsufficientFundsRefusal || error instanceof RecipientClosedRefusal) return error.refusal;
  return undefined;
}
