/**
 * Identity command handlers: load streams, decide, append. The only I/O is through the ports,
 * so these run unchanged against SQLite or KurrentDB.
 */
import { AppError } from '../shared/errors.js';
import { WrongExpectedRevisionError, type ExpectedRevision, type RecordedEvent } from '../shared/ports/event-store.js';
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
  takenError,
} from './decider.js';
import { emailVerificationRequested, verifiedByPasswordReset } from './email-verification.js';
import { identityKeyStream, userStream, type IdentityKeyEvent, type IdentityKeyKind, type UserEvent } from './events.js';
import { assertPasswordPolicy } from './password-policy.js';
import type { IdentityDeps } from './ports.js';
import { evolveIdentityKey, evolveUser, type IdentityKeyState, type UserState } from './state.js';

/** Two registrations racing for one key: one retry re-reads the stream and decides again. */
const CLAIM_ATTEMPTS_MAX = 3;

/** Appends that lost a race with an unrelated append (a sign-in) decide again this many times. */
const USER_APPEND_ATTEMPTS_MAX = 3;

const revisionOf = (events: RecordedEvent[]): ExpectedRevision =>
  events.length === 0 ? 'no_stream' : (events[events.length - 1] as RecordedEvent).revision;

/** The account's stream folded, deleted or not (the claim of a key needs to tell them apart). */
export async function loadUserRecord(
  deps: Pick<IdentityDeps, 'store'>,
  userId: string,
): Promise<{ state: UserState | undefined; revision: ExpectedRevision }> {
  const events = await deps.store.readStream(userStream(userId));
  const state = events.reduce<UserState | undefined>((s, e) => evolveUser(s, e as unknown as UserEvent), undefined);
  return { state, revision: revisionOf(events) };
}

/** The account, or no state once it is deleted: a deleted account signs in, edits and pays nothing. */
export async function loadUser(
  deps: Pick<IdentityDeps, 'store'>,
  userId: string,
): Promise<{ state: UserState | undefined; revision: ExpectedRevision }> {
  const loaded = await loadUserRecord(deps, userId);
  return loaded.state?.deletedAt === undefined ? loaded : { state: undefined, revision: loaded.revision };
}

async function loadKey(deps: Pick<IdentityDeps, 'store'>, kind: IdentityKeyKind, value: string) {
  const events = await deps.store.readStream(identityKeyStream(kind, value));
  const state = events.reduce<IdentityKeyState>((s, e) => evolveIdentityKey(s, e as unknown as IdentityKeyEvent), {});
  return { state, revision: revisionOf(events) };
}

/** The user holding a unique key, or undefined. Strongly consistent: reads the key's stream. */
export async function findUserIdByKey(
  deps: Pick<IdentityDeps, 'store'>,
  kind: IdentityKeyKind,
  value: string,
): Promise<string | undefined> {
  const { state } = await loadKey(deps, kind, value);
  if (!state.holderUserId) return undefined;
  const user = await loadUser(deps, state.holderUserId);
  return user.state ? state.holderUserId : undefined;
}

async function claimKey(deps: IdentityDeps, kind: IdentityKeyKind, value: string, userId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadKey(deps, kind, value);
    const holder = state.holderUserId ? (await loadUserRecord(deps, state.holderUserId)).state : undefined;
    const holderRegistered = holder !== undefined;
    const holderDeleted = holder?.deletedAt !== undefined;
    const events = decideClaim(state, { kind, value, userId, now: deps.clock.now(), holderRegistered, holderDeleted });
    if (events.length === 0) return;
    try {
      await deps.store.append(identityKeyStream(kind, value), events, revision);
      return;
    } catch (error) {
      // Losing the race for a key means someone else now holds it; re-deciding says so.
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= CLAIM_ATTEMPTS_MAX) {
        if (error instanceof WrongExpectedRevisionError) throw takenError(kind);
        throw error;
      }
    }
  }
}

async function releaseKey(deps: IdentityDeps, kind: IdentityKeyKind, value: string, userId: string): Promise<void> {
  const { state, revision } = await loadKey(deps, kind, value);
  const events = decideRelease(state, kind, value, userId, deps.clock.now());
  if (events.length > 0) await deps.store.append(identityKeyStream(kind, value), events, revision);
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
  const now = deps.clock.now();
  // The welcome mail carries the link that proves the address (ADR 046).
  const events: UserEvent[] = [
    ...decideRegistration(undefined, input, { userId, passwordHash, now }),
    emailVerificationRequested(userId, { requestId: deps.newId(), now, via: 'registration' }),
  ];
  const result = await deps.store.append(userStream(userId), withLanguage(events, language), 'no_stream');
  return { userId, email: normalizeEmail(input.email), position: result.position };
}

function withLanguage<E extends { type: string; data: unknown }>(events: E[], language: string | undefined) {
  return language === undefined ? events : events.map((event) => ({ ...event, metadata: { language } }));
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
  await deps.store.append(
    userStream(userId),
    [{ type: 'UserSignedIn', data: { userId, signedInAt: deps.clock.now().toISOString() } }],
    'any',
  );
}

export async function recordSignOut(deps: IdentityDeps, userId: string): Promise<void> {
  await deps.store.append(
    userStream(userId),
    [{ type: 'UserSignedOut', data: { userId, signedOutAt: deps.clock.now().toISOString() } }],
    'any',
  );
}

/** A user's own profile. Nobody may read another user's record through this call. */
export async function getOwnProfile(deps: IdentityDeps, requesterId: string, userId: string): Promise<UserOutput> {
  if (requesterId !== userId) throw new AppError('FORBIDDEN', 'errors:forbidden');
  const { state } = await loadUser(deps, userId);
  if (!state) throw new AppError('NOT_FOUND', 'errors:notFound');
  return profileOf(state);
}

const profileOf = (state: UserState): UserOutput => ({
  username: state.username,
  first_name: state.firstName,
  last_name: state.lastName,
  phone_number: state.phone,
});

/**
 * Appends what `decide` makes of the user's current state at the revision it was read at,
 * deciding again on a fresh read when another append (a sign-in, a racing change) came first.
 * Returns the state after the append.
 */
export async function appendToUser(
  deps: IdentityDeps,
  userId: string,
  decide: (user: UserState) => UserEvent[] | Promise<UserEvent[]>,
  language?: string,
): Promise<UserState> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadUser(deps, userId);
    if (!state) throw new AppError('NOT_FOUND', 'errors:notFound');
    const events = await decide(state);
    if (events.length === 0) return state;
    try {
      await deps.store.append(userStream(userId), withLanguage(events, language), revision);
      return events.reduce<UserState>((s, e) => evolveUser(s, e) as UserState, state);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= USER_APPEND_ATTEMPTS_MAX) throw error;
    }
  }
}

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
  const now = () => deps.clock.now();

  if (input.first_name !== undefined || input.last_name !== undefined) {
    const updated = await appendToUser(deps, userId, (s) =>
      decideNameChange(s, { firstName: input.first_name, lastName: input.last_name, now: now() }),
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
    let previousPhone: string | undefined;
    let updated: UserState;
    try {
      updated = await appendToUser(deps, userId, (s) => {
        const events = decidePhoneChange(s, { phone, now: now() });
        previousPhone = events[0]?.data.previousPhone;
        return events;
      });
    } catch (error) {
      await releaseKey(deps, 'phone', phone, userId);
      throw error;
    }
    if (previousPhone !== undefined) await releaseKey(deps, 'phone', previousPhone, userId);
    return { profile: profileOf(updated), passwordChanged: false };
  }

  if (input.password !== undefined) {
    const password = input.password;
    const changeId = deps.newId();
    // Verified inside the decision: the change is appended at the revision whose hash the current
    // password was checked against, so a change that won a race makes this one read the new hash
    // and fail on the old password (ADR 038).
    const updated = await appendToUser(
      deps,
      userId,
      async (s) => {
        const currentPasswordValid = await deps.hasher.verify(s.passwordHash, input.current_password ?? '');
        if (currentPasswordValid) assertPasswordPolicy(password, { username: s.username, email: s.email }, deps.isCommonPassword);
        const passwordHash = currentPasswordValid ? await deps.hasher.hash(password) : '';
        return decideProfilePasswordChange(s, { currentPasswordValid, passwordHash, changeId, now: now() });
      },
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
  const { state } = await loadUser(deps, userId);
  if (!state) return;
  const events = decidePasswordResetRequest(state, { requestId: deps.newId(), now: deps.clock.now() });
  if (events.length > 0) await deps.store.append(userStream(userId), withLanguage(events, language), 'any');
}

/** Sets a new password for a verified reset link (the caller has checked the token's MAC). */
export async function resetPassword(deps: IdentityDeps, link: { userId: string; requestId: string }, password: string): Promise<void> {
  const { state: current } = await loadUser(deps, link.userId);
  if (current) assertPasswordPolicy(password, { username: current.username, email: current.email }, deps.isCommonPassword);
  const passwordHash = await deps.hasher.hash(password);
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadUser(deps, link.userId);
    // Deciding again after a lost race is what makes a link work only once: the winner marked it used.
    const now = deps.clock.now();
    const events: UserEvent[] = [
      ...decidePasswordReset(state, { requestId: link.requestId, passwordHash, now }),
      // The link reached the account's inbox: using it proves the address too (ADR 046).
      ...verifiedByPasswordReset(state, { requestId: link.requestId, now }),
    ];
    try {
      await deps.store.append(userStream(link.userId), events, revision);
      return;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= USER_APPEND_ATTEMPTS_MAX) throw error;
    }
  }
}
