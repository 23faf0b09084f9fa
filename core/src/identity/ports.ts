/** What the identity handlers need from the outside world. */
import type { Clock } from '../shared/clock.js';
import type { PersonalDataVault } from '../personal-data/index.js';
import type { EventStore } from '../shared/ports/event-store.js';
import type { IsCommonPassword } from './password-policy.js';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * Checks a password. With no hash (unknown account) it verifies against a dummy hash and
   * returns false, so an unknown e-mail takes as long as a wrong password.
   */
  verify(hash: string | undefined, password: string): Promise<boolean>;
}

export interface IdentityDeps {
  store: EventStore;
  hasher: PasswordHasher;
  clock: Clock;
  /** A fresh UUID per call. */
  newId: () => string;
  /** The common-password list, loaded by the api from a package (see password-policy.ts). */
  isCommonPassword: IsCommonPassword;
  /** Forgets a deleted account's key (ADR 042). */
  personalData: PersonalDataVault;
}
