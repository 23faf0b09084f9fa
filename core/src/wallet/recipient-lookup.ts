/**
 * Who a send would reach, for the summary under the send form (issue: "who receives it, the
 * resolved username or a shortened address"). It reads what `resolveRecipient` reads, so the
 * summary and the send itself never disagree about the payee.
 */
import { z } from 'zod';
import { type Recipient, sendInput } from './contracts.js';
import { findWalletIdByAddress, walletAddressOf, type WalletDeps } from './handlers.js';

/** The send form's `to`, read exactly as Send reads it (the same messages for the same slips). */
export const recipientLookupInput = sendInput.pick({ to: true });

export const recipientLookupOutput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), username: z.string(), address: z.string() }),
  z.object({ kind: z.literal('external'), address: z.string() }),
  z.object({ kind: z.literal('unknown') }),
]);

export type RecipientLookup =
  /** A Quern account: its username and the address the MLX would reach. */
  | { kind: 'user'; username: string; address: string }
  /** A millix address outside Quern: the network carries the send. */
  | { kind: 'external'; address: string }
  /**
   * A username or e-mail no Quern account answers to. An e-mail its owner never proved is refused
   * with Send's own message (`recipientEmailUnverified`), as Send would refuse it.
   */
  | { kind: 'unknown' };

export async function lookUpRecipient(deps: Pick<WalletDeps, 'store' | 'payees'>, recipient: Recipient): Promise<RecipientLookup> {
  if (recipient.kind === 'address') {
    const walletId = await findWalletIdByAddress(deps, recipient.address);
    // A system wallet (reserve, genesis) has an address but no account: it reads as external.
    const username = walletId ? await deps.payees.usernameOf(walletId) : undefined;
    return username !== undefined
      ? { kind: 'user', username, address: recipient.address }
      : { kind: 'external', address: recipient.address };
  }
  const userId =
    recipient.kind === 'username'
      ? await deps.payees.userIdByUsername(recipient.username)
      : await deps.payees.payeeByEmail(recipient.email);
  const address = userId ? await walletAddressOf(deps, userId) : undefined;
  const username = userId && address ? await deps.payees.usernameOf(userId) : undefined;
  return username !== undefined && address ? { kind: 'user', username, address } : { kind: 'unknown' };
}
