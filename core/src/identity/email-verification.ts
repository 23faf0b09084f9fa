/**
 * Proving an account's e-mail address (ADR 046). Until its owner opens a link mailed to it, an
 * address is not a payee (sends, payouts and the checkout refuse to resolve it) and gets no mail
 * but the verification. Whoever registers someone else's address first can then divert nothing.
 */
import { handleCommand, readState } from '../shared/command-handler.js';
import { AppError } from '../shared/errors.js';
import { identityKeyStream, userStream } from './events.js';
import { changeUser, loadUser } from './handlers.js';
import type { IdentityDeps } from './ports.js';
import { identityKeyModel, liveUser, userModel } from './state.js';
import { decideEmailVerification, decideEmailVerificationResend, UnverifiedEmailRecipient } from './email-verification-rules.js';

export * from './email-verification-rules.js';

export interface EmailVerificationStatus {
  email: string;
  verified: boolean;
}

export async function emailVerificationStatus(deps: Pick<IdentityDeps, 'store'>, userId: string): Promise<EmailVerificationStatus> {
  const { state } = await loadUser(deps, userId);
  if (!state) throw new AppError('NOT_FOUND', 'errors:notFound');
  return { email: state.email, verified: state.emailVerifiedAt !== undefined };
}

/** The signed-in owner asks for another verification mail (the workers send it). */
export async function resendEmailVerification(deps: IdentityDeps, userId: string, language?: string): Promise<EmailVerificationStatus> {
  const requestId = deps.newId();
  const { user } = await changeUser(deps, userId, (s, now) => decideEmailVerificationResend(s, { requestId, now }), language);
  return { email: user.email, verified: user.emailVerifiedAt !== undefined };
}

/** Records the proof for a link whose MAC the caller has checked; one use, like a reset link. */
export async function verifyEmail(deps: IdentityDeps, link: { userId: string; requestId: string }): Promise<void> {
  // Deciding again after a lost race is what makes a link work once: the winner marked it used.
  await handleCommand(deps, userStream(link.userId), userModel, (state, now) => ({
    events: decideEmailVerification(liveUser(state), { requestId: link.requestId, now }),
    result: undefined,
  }));
}

/**
 * The account an e-mail names as a payee (sends, payouts, the checkout's `to`): undefined when
 * no account holds it, the typed refusal when its owner never proved it. One read of the key's
 * stream and one of the account's.
 */
export async function findPayeeByEmail(deps: Pick<IdentityDeps, 'store'>, email: string, field = 'to'): Promise<string | undefined> {
  const { state: key } = await readState(deps.store, identityKeyStream('email', email), identityKeyModel);
  if (!key.holderUserId) return undefined;
  const { state } = await loadUser(deps, key.holderUserId);
  if (!state) return undefined;
  if (state.emailVerifiedAt === undefined) throw new UnverifiedEmailRecipient(field);
  return key.holderUserId;
}
