/**
 * Deleting one's own account (ADR 042). The owner proves it again (the password, and a second
 * factor when two-factor is on); the wallet must already be closed at zero (the caller closes
 * it first, which fails unless it is empty); then UserAccountDeleted is recorded and the key
 * sealing the account's personal data destroyed, which erases its names, e-mail, phone and
 * messages from the log for good.
 */
import { RefusalError } from '../shared/errors.js';
import { assertOwnAccount } from './decider.js';
import type { UserAccountDeleted, UserEvent } from './events.js';
import { decideOnUser, loadUser } from './handlers.js';
import type { IdentityDeps } from './ports.js';
import type { UserState } from './state.js';
import { decideSecondFactor, recoveryCodeIndex, type TotpCodes } from './two-factor.js';

export interface DeletionProof {
  passwordValid: boolean;
  /** The TOTP step the given code matched (undefined: no code or no match). */
  step?: number | undefined;
  /** The recovery code a typed one matched (index undefined: none did); absent when none was typed. */
  recovery?: { index: number | undefined } | undefined;
  /** Whether a code or a recovery code was given at all. */
  secondFactorGiven: boolean;
  now: Date;
}

export function decideAccountDeletion(user: UserState, proof: DeletionProof): UserEvent[] {
  if (!proof.passwordValid)
    throw new RefusalError('wrongCurrentPassword', 'VALIDATION', 'errors:wrongCurrentPassword', {
      password: 'errors:wrongCurrentPassword',
    });
  const events: UserEvent[] = [];
  if (user.twoFactor.enabled) {
    if (!proof.secondFactorGiven)
      throw new RefusalError('twoFactorCodeRequired', 'VALIDATION', 'errors:twoFactorCodeRequired', {
        code: 'errors:twoFactorCodeRequired',
      });
    events.push(...decideSecondFactor(user, { step: proof.step, recovery: proof.recovery, now: proof.now }));
  }
  const deleted: UserAccountDeleted = {
    type: 'UserAccountDeleted',
    data: { userId: user.userId, username: user.username, deletedAt: proof.now.toISOString() },
  };
  events.push(deleted);
  return events;
}

export interface AccountDeletionInput {
  password: string;
  code?: string | undefined;
  recoveryCode?: string | undefined;
}

/**
 * `closeAccountFunds` closes what the account holds outside identity (its wallet, its plans,
 * subscriptions and key); it runs after the proof is checked and before anything is recorded
 * here, and throws (nothing recorded) when the wallet is not empty.
 */
export async function deleteOwnAccount(
  deps: IdentityDeps,
  totp: TotpCodes,
  requesterId: string,
  userId: string,
  input: AccountDeletionInput,
  closeAccountFunds: (userId: string) => Promise<void>,
): Promise<void> {
  const { state } = await loadUser(deps, userId);
  const user = assertOwnAccount(state, requesterId, userId);
  const passwordValid = await deps.hasher.verify(user.passwordHash, input.password);
  const proofFor = async (current: UserState): Promise<DeletionProof> => {
    const now = deps.clock.now();
    const secret = current.twoFactor.enabled?.secret;
    const recovery =
      input.recoveryCode === undefined ? undefined : { index: await recoveryCodeIndex(deps, totp, current, input.recoveryCode) };
    const step = secret === undefined || input.code === undefined ? undefined : totp.matchStep(secret, input.code, now);
    return { passwordValid, step, recovery, secondFactorGiven: input.code !== undefined || input.recoveryCode !== undefined, now };
  };
  // Checked once without recording, so a wrong password or code closes nothing.
  decideAccountDeletion(user, await proofFor(user));
  await closeAccountFunds(userId);
  await decideOnUser(deps, userId, proofFor, (current, proof, now) => decideAccountDeletion(current, { ...proof, now }));
  await deps.personalData.forget(userId);
}
