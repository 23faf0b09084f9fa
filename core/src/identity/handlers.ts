/**
 * Identity command handlers: each a call of the command pipeline (ADR 063) with a decision from
 * decider.ts (or two-factor.ts, deletion.ts, email-verification.ts). The only I/O is through the
 * ports, so these run unchanged against SQLite or KurrentDB.
 */
import { handleCommandWithEvidence } from '../shared/command-evidence.js';
import { foldEvents, handleCommand, readState } from '../shared/command-handler.js';
import { AppError } from '../shared/errors.js';
import type { ExpectedRevision } from '../shared/ports/event-store.js';
import type { LoginInput, PasswordResetRequestInput, RegisterInput, UserOutput, UserUpdateInput } from './contracts.js';
import { normalizeEmail, normalizePhone, normalizeUsername } from './contracts.js';
import {
  assertOwnAccount,
  decideClaim,
  decideNameChange,
  decidePasswordReset,
  decidePasswordResetRequest,
  decidePhoneChange,
  decideProfilePasswordChange,
  decideRegistration,
  decideRelease,
} from './decider.js';
import { emailVerificationRequested, verifiedByPasswordReset } from './email-verification-rules.js';
import { identityKeyStream, userStream, type IdentityKeyKind, type UserEvent } from './events.js';
import { assertPasswordPolicy } from './password-policy.js';
import type { IdentityDeps } from './ports.js';
import { identityKeyModel, liveUser, userModel, type UserState } from './state.js';

const notFound = () => new AppError('NOT_FOUND', 'errors:notFound');

/** The account's stream folded, deleted or not (the claim of a key needs to tell them apart). */
export async function loadUserRecord(
  deps: Pick<IdentityDeps, 'store'>,
  userId: string,
): Promise<{ state: UserState | undefined; revision: ExpectedRevision }> {
  const { state, revision } = await readState(deps.store, userStream(userId), userModel);
  return { state, revision };
}

/** The account, or no state once it is deleted: a deleted account signs in, edits and pays nothing. */
export async function loadUser(
  deps: Pick<IdentityDeps, 'store'>,
  userId: string,
): Promise<{ state: UserState | undefined; revision: ExpectedRevision }> {
  const loaded = await loadUserRecord(deps, userId);
  return { state: liveUser(loaded.state), revision: loaded.revision };
}

/** The user holding a unique key, or undefined. Strongly consistent: reads the key's stream. */
export async function findUserIdByKey(
  deps: Pick<IdentityDeps, 'store'>,
  kind: IdentityKeyKind,
  value: string,
): Promise<string | undefined> {
  const { state } = await readState(deps.store, identityKeyStream(kind, value), identityKeyModel);
  if (!state.holderUserId) return undefined;
  const user = await loadUser(deps, state.holderUserId);
  return user.state ? state.holderUserId : undefined;
}

/**
 * Claims a unique key for `userId`. Whether the holder's registration completed, or its account
 * was deleted, is on the holder's own stream, read again for every attempt; losing the race for a
 * key means someone else now holds it, and deciding again says so.
 */
async function claimKey(deps: IdentityDeps, kind: IdentityKeyKind, value: string, userId: string): Promise<void> {
  await handleCommandWithEvidence(
    deps,
    identityKeyStream(kind, value),
    identityKeyModel,
    async (key) => (key.holderUserId ? (await loadUserRecord(deps, key.holderUserId)).state : undefined),
    (key, holder, now) => ({
      events: decideClaim(key, {
        kind,
        value,
        userId,
        now,
        holderRegistered: holder !== undefined,
        holderDeleted: holder?.deletedAt !== undefined,
      }),
      result: undefined,
    }),
  );
}

async function releaseKey(deps: IdentityDeps, kind: IdentityKeyKind, value: string, userId: string): Promise<void> {
  await handleCommand(deps, identityKeyStream(kind, value), identityKeyModel, (key, now) => ({
    events: decideRelease(key, kind, value, userId, now),
    result: undefined,
  }));
}

/** `language`: the request's, recorded as the events' metadata so e-mails go out in it. */
function withLanguage(events: UserEvent[], language: string | undefined): UserEvent[] {
  return language === undefined ? events : events.map((event) => ({ ...event, metadata: { language } }));
}

/**
 * One command on the live account's stream: `gather` does the I/O the decision needs about the
 * account as read (a password checked against its hash, codes hashed), again on every attempt,
 * and `decide` is pure on it. A deleted or unknown account is not found. Answers the account
 * after the events, and the events.
 */
export async function decideOnUser<Evidence>(
  deps: IdentityDeps,
  userId: string,
  gather: (user: UserState) => Promise<Evidence>,
  decide: (user: UserState, evidence: Evidence, now: Date) => UserEvent[],
  language?: string,
): Promise<{ user: UserState; events: UserEvent[] }> {
  const handled = await handleCommandWithEvidence(
    deps,
    userStream(userId),
    userModel,
    async (state) => {
      const user = liveUser(state);
      if (!user) throw notFound();
      return { user, evidence: await gather(user) };
    },
    (_state, { user, evidence }, now) => ({ events: withLanguage(decide(user, evidence, now), language), result: undefined }),
  );
  const user = foldEvents(userModel, handled.evidence.user, handled.events);
  if (!user) throw notFound();
  return { user, events: handled.events };
}

/** decideOnUser for a decision that needs nothing but the account and the time. */
export function changeUser(
  deps: IdentityDeps,
  userId: string,
  decide: (user: UserState, now: Date) => UserEvent[],
  language?: string,
): Promise<{ user: UserState; events: UserEvent[] }> {
  return decideOnUser(
    deps,
    userId,
    async () => undefined,
    (user, _none, now) => decide(user, now),
    language,
  );
}

/**
 * A fact that needs no decision (a sign-in, a sign-out, a lock): appended at 'any' without
 * reading the stream, so a busy account never makes a sign-in read its history or retry.
 */
export async function recordUserFact(deps: Pick<IdentityDeps, 'store' | 'clock'>, userId: string, events: UserEvent[]): Promise<void> {
  await handleCommand(deps, userStream(userId), userModel, () => ({ events, result: undefined }), {
    load: async () => ({ state: undefined, revision: 'any' }),
  });
}

export interface Registered {
  userId: string;
  email: string;
  position: bigint;
}

/**
 * Registers a user: claims username, e-mail and phone (each its own stream, "no stream"
 * semantics), then records UserRegistered. A taken key releases the keys already claimed.
 */
/** `language`: the request's, recorded as the events' metadata so e-mails go out in it. */
export async function registerUser(deps: IdentityDeps, input: RegisterInput, language?: string): Promise<Registered> {
  const userId = deps.newId();
  const keys: Array<[IdentityKeyKind, string]> = [
    ['username', normalizeUsername(input.userName)],
    ['email', normalizeEmail(input.email)],
    ['phone', normalizePhone(input.phone)],
  ];
  assertPasswordPolicy(input.password, { username: input.userName, email: input.email }, deps.isCommonPassword);
  const passwordHash = await deps.hasher.hash(input.password);
  const claimed: Array<[IdentityKeyKind, string]> = [];
  try {
    for (const [kind, value] of keys) {
      await claimKey(deps, kind, value, userId);
      claimed.push([kind, value]);
    }
  } catch (error) {
    for (const [kind, value] of claimed) await releaseKey(deps, kind, value, userId);
    throw error;
  }
  const requestId = deps.newId();
  // The welcome mail carries the link that proves the address (ADR 046).
  const handled = await handleCommand(deps, userStream(userId), userModel, (state, now) => ({
    events: withLanguage(
      [
        ...decideRegistration(state, input, { userId, passwordHash, now }),
        emailVerificationRequested(userId, { requestId, now, via: 'registration' }),
      ],
      language,
    ),
    result: undefined,
  }));
  if (handled.position === undefined) throw new Error('A registration appends its events');
  return { userId, email: normalizeEmail(input.email), position: handled.position };
}

/** Checks credentials. Unknown e-mail and wrong password are the same error, and cost the same. */
export async function authenticate(deps: IdentityDeps, input: LoginInput): Promise<{ userId: string; email: string }> {
  const userId = await findUserIdByKey(deps, 'email', normalizeEmail(input.email));
  const user = userId ? (await loadUser(deps, userId)).state : undefined;
  const valid = await deps.hasher.verify(user?.passwordHash, input.password);
  if (!user || !valid) throw new AppError('UNAUTHENTICATED', 'errors:invalidCredentials');
  return { userId: user.userId, email: user.email };
}

export async function recordSignIn(deps: IdentityDeps, userId: string): Promise<void> {
  await recordUserFact(deps, userId, [{ type: 'UserSignedIn', data: { userId, signedInAt: deps.clock.now().toISOString() } }]);
}

export async function recordSignOut(deps: IdentityDeps, userId: string): Promise<void> {
  await recordUserFact(deps, userId, [{ type: 'UserSignedOut', data: { userId, signedOutAt: deps.clock.now().toISOString() } }]);
}

/** A user's own profile. Nobody may read another user's record through this call. */
export async function getOwnProfile(deps: IdentityDeps, requesterId: string, userId: string): Promise<UserOutput> {
  if (requesterId !== userId) throw new AppError('FORBIDDEN', 'errors:forbidden');
  const { state } = await loadUser(deps, userId);
  if (!state) throw notFound();
  return profileOf(state);
}

const profileOf = (state: UserState): UserOutput => ({
  username: state.username,
  first_name: state.firstName,
  last_name: state.lastName,
  phone_number: state.phone,
});

export interface ProfileUpdated {
  profile: UserOutput;
  /** Whether the password changed (the caller then ends the user's other sessions). */
  passwordChanged: boolean;
}

/**
 * One profile edit by the account itself (403 for anyone else, nothing recorded). A new phone
 * claims its identity key first, as registration does, and the old key is released once the
 * change is recorded; a password change needs the current password and keeps the policy.
 */
export async function updateOwnProfile(
  deps: IdentityDeps,
  requesterId: string,
  userId: string,
  input: UserUpdateInput,
  language?: string,
): Promise<ProfileUpdated> {
  const { state } = await loadUser(deps, userId);
  const user = assertOwnAccount(state, requesterId, userId);

  if (input.first_name !== undefined || input.last_name !== undefined) {
    const { user: updated } = await changeUser(deps, userId, (s, now) =>
      decideNameChange(s, { firstName: input.first_name, lastName: input.last_name, now }),
    );
    return { profile: profileOf(updated), passwordChanged: false };
  }

  if (input.phone_number !== undefined) {
    const phone = normalizePhone(input.phone_number);
    if (phone === user.phone) return { profile: profileOf(user), passwordChanged: false };
    await claimKey(deps, 'phone', phone, userId).catch((error: unknown) => {
      // The profile form's field is phone_number, not registration's phone.
      if (error instanceof AppError && error.code === 'CONFLICT')
        throw new AppError('CONFLICT', 'errors:phoneTaken', { phone_number: 'errors:phoneTaken' });
      throw error;
    });
    let changed: Awaited<ReturnType<typeof changeUser>>;
    try {
      changed = await changeUser(deps, userId, (s, now) => decidePhoneChange(s, { phone, now }));
    } catch (error) {
      await releaseKey(deps, 'phone', phone, userId);
      throw error;
    }
    const phoneChanged = changed.events.find((event) => event.type === 'UserPhoneChanged');
    if (phoneChanged) await releaseKey(deps, 'phone', phoneChanged.data.previousPhone, userId);
    return { profile: profileOf(changed.user), passwordChanged: false };
  }

  if (input.password !== undefined) {
    const password = input.password;
    const changeId = deps.newId();
    // Checked on the state decided on: the change is appended at the revision whose hash the
    // current password was checked against, so a change that won a race makes this one read the
    // new hash and fail on the old password (ADR 038).
    const { user: updated } = await decideOnUser(
      deps,
      userId,
      async (s) => {
        const currentPasswordValid = await deps.hasher.verify(s.passwordHash, input.current_password ?? '');
        if (currentPasswordValid) assertPasswordPolicy(password, { username: s.username, email: s.email }, deps.isCommonPassword);
        return { currentPasswordValid, passwordHash: currentPasswordValid ? await deps.hasher.hash(password) : '' };
      },
      (s, checked, now) => decideProfilePasswordChange(s, { ...checked, changeId, now }),
      language,
    );
    return { profile: profileOf(updated), passwordChanged: true };
  }
  throw new AppError('VALIDATION', 'errors:oneProfileField');
}

/**
 * Records a reset request when the e-mail belongs to a user. The caller answers the same either
 * way, so the form cannot be used to find out who has an account.
 */
export async function requestPasswordReset(deps: IdentityDeps, input: PasswordResetRequestInput, language?: string): Promise<void> {
  const userId = await findUserIdByKey(deps, 'email', normalizeEmail(input.email));
  if (!userId) return;
  const requestId = deps.newId();
  await handleCommand(deps, userStream(userId), userModel, (state, now) => {
    const user = liveUser(state);
    return { events: user ? withLanguage(decidePasswordResetRequest(user, { requestId, now }), language) : [], result: undefined };
  });
}

/** Sets a new password for a verified reset link (the caller has checked the token's MAC). */
export async function resetPassword(deps: IdentityDeps, link: { userId: string; requestId: string }, password: string): Promise<void> {
  const { state: current } = await loadUser(deps, link.userId);
  if (current) assertPasswordPolicy(password, { username: current.username, email: current.email }, deps.isCommonPassword);
  const passwordHash = await deps.hasher.hash(password);
  // Deciding again after a lost race is what makes a link work only once: the winner marked it used.
  await handleCommand(deps, userStream(link.userId), userModel, (state, now) => {
    const user = liveUser(state);
    return {
      events: [
        ...decidePasswordReset(user, { requestId: link.requestId, passwordHash, now }),
        // The link reached the account's inbox: using it proves the address too (ADR 046).
        ...verifiedByPasswordReset(user, { requestId: link.requestId, now }),
      ],
      result: undefined,
    };
  });
}
