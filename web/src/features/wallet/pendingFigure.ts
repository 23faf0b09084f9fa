/**
 * The hero's Pending figure (ADR 062): what the pending list adds up to, incoming minus outgoing
 * (amount plus fee), with its sign. Current already leaves outgoing holds out, so Pending is not
 * to be added to it: it says what is still on its way in and out. An older server that answers
 * only `unstable` (unconfirmed deposits) is shown as before.
 */
import { MINUS_SIGN } from './walletFormat.js';

export interface PendingFigure {
  /** The unsigned magnitude as wire digits (what the MLX and USD formatters take). */
  magnitude: string;
  sign: '' | '+' | typeof MINUS_SIGN;
}

const WIRE = /^(0|[1-9][0-9]{0,19})$/;

export function pendingFigureOf(balance: { unstable: string; pending_incoming?: string; pending_outgoing?: string }): PendingFigure | null {
  const { pending_incoming: incoming, pending_outgoing: outgoing } = balance;
  if (incoming === undefined || outgoing === undefined)
    return WIRE.test(balance.unstable) ? { magnitude: balance.unstable, sign: '' } : null;
  if (!WIRE.test(incoming) || !WIRE.test(outgoing)) return null;
  const net = BigInt(incoming) - BigInt(outgoing);
  if (net === 0n) return { magnitude: '0', sign: '' };
  return net > 0n ? { magnitude: net.toString(), sign: '+' } : { magnitude: (-net).toString(), sign: MINUS_SIGN };
}
