/**
 * Identity's side of the wallet's PayeeDirectory port (ADR 067): the username and e-mail keys
 * and the user streams answer who a send names, so the wallet needs no identity import.
 */
import type { PayeeDirectory } from '../wallet/payee-directory.js';
import { findPayeeByEmail } from './email-verification.js';
import { findUserIdByKey, loadUser } from './handlers.js';
import type { IdentityDeps } from './ports.js';

export const identityPayeeDirectory = (deps: Pick<IdentityDeps, 'store'>): PayeeDirectory => ({
  userIdByUsername: (username) => findUserIdByKey(deps, 'username', username),
  payeeByEmail: (email) => findPayeeByEmail(deps, email),
  usernameOf: async (userId) => (await loadUser(deps, userId)).state?.username,
});
