/** A registered account, with and without two-factor, for the identity unit tests. */
import { registerInput } from '../src/identity/contracts.js';
import { decideRegistration } from '../src/identity/decider.js';
import type { UserEvent } from '../src/identity/events.js';
import { evolveUser, type UserState } from '../src/identity/state.js';
import { decideTwoFactorConfirm, decideTwoFactorStart } from '../src/identity/two-factor.js';

export const now = new Date('2026-11-24T10:00:00.000Z');
export const fold = (state: UserState, events: UserEvent[]) => events.reduce<UserState>((s, e) => evolveUser(s, e) as UserState, state);

/** Ada (u1, username ada_l), registered at `now` with password hash 'hash'. */
export function registered(): UserState {
  const input = registerInput.parse({
    userName: 'ada_l',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+15550102030',
    password: 'correct horse battery',
  });
  const [event] = decideRegistration(undefined, input, { userId: 'u1', passwordHash: 'hash', now });
  return evolveUser(undefined, event as UserEvent) as UserState;
}

/** Ten recovery codes as the log keeps them: a four-character name and a hash each. */
export const recoveryCodes = Array.from({ length: 10 }, (_, i) => ({ name: `NAM${i}`, hash: `hash-${i}` }));

/** Ada with two-factor on (secret 'SECRET'), confirmed at TOTP step `step`. */
export function withTwoFactor(step = 100): UserState {
  const started = fold(registered(), decideTwoFactorStart(registered(), { enrollmentId: 'e1', secret: 'SECRET', now }));
  return fold(started, decideTwoFactorConfirm(started, { enrollmentId: 'e1', step, recoveryCodes, now }));
}
