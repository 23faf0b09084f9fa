// Proves that users-projection events committed to a real Redis give readers the user's profile (never the password hash) and the username and e-mail lookups, that other events change nothing, and that an incomplete registration is refused without a trace.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProjectionApplyError } from '../commit.js';
import { type CommittedLog, openCommittedLog } from '../../test/committed-log.js';
import { dumpKeys } from '../../test/redis-dump.js';
import { openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { usersProjection } from './projection.js';
import { findUserIdByEmail, findUserIdByUsername, getUser } from './queries.js';

let redis: PrivateRedis;
let log: CommittedLog;

beforeAll(async () => {
  redis = await openPrivateRedis();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.redis.flushall();
  log = openCommittedLog(redis.redis, [usersProjection]);
});
afterEach(() => {
  log.close();
});

const passwordHash = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0$aGFzaA';
const registered = {
  userId: 'u1',
  username: 'Ada_L',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'Ada@Example.com',
  phone: '+15550102030',
  passwordHash,
  registeredAt: '2026-01-01T00:00:00.000Z',
};
const profile = {
  id: 'u1',
  username: 'Ada_L',
  first_name: 'Ada',
  last_name: 'Lovelace',
  phone_number: '+15550102030',
  email: 'Ada@Example.com',
  registered_at: '2026-01-01T00:00:00.000Z',
};

describe('users read model: registration', () => {
  it('given UserRegistered, when committed, then the reader gets the profile as registered and no read-model key holds the password hash', async () => {
    await log.apply('UserRegistered', registered);

    expect(await getUser(redis.redis, 'u1')).toEqual(profile);
    expect(JSON.stringify(await dumpKeys(redis.redis, 'rm:*'))).not.toContain(passwordHash);
    expect(await log.checkpoint()).toBe('1');
  });

  it('given UserRegistered, when looked up by username or e-mail in any case and with spaces, then the user id comes back; unknown or empty ones give null', async () => {
    await log.apply('UserRegistered', registered);

    expect(await findUserIdByUsername(redis.redis, 'Ada_L')).toBe('u1');
    expect(await findUserIdByUsername(redis.redis, '  ADA_l ')).toBe('u1');
    expect(await findUserIdByEmail(redis.redis, 'ada@example.com')).toBe('u1');
    expect(await findUserIdByEmail(redis.redis, ' ADA@EXAMPLE.COM')).toBe('u1');
    expect(await findUserIdByUsername(redis.redis, 'Ada')).toBeNull();
    expect(await findUserIdByEmail(redis.redis, 'ada@example.org')).toBeNull();
    expect(await findUserIdByUsername(redis.redis, '   ')).toBeNull();
    expect(await findUserIdByEmail(redis.redis, '')).toBeNull();
    expect(await getUser(redis.redis, 'u2')).toBeNull();
  });

  it('given two registrations, when committed in one batch, then each user and each lookup is the right one', async () => {
    const grace = { ...registered, userId: 'u2', username: 'grace', email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' };
    await log.commit(log.event('UserRegistered', registered), log.event('UserRegistered', grace));

    expect(await getUser(redis.redis, 'u2')).toMatchObject({ id: 'u2', username: 'grace', first_name: 'Grace', last_name: 'Hopper' });
    expect(await getUser(redis.redis, 'u1')).toEqual(profile);
    expect(await findUserIdByUsername(redis.redis, 'GRACE')).toBe('u2');
    expect(await findUserIdByEmail(redis.redis, 'grace@example.com')).toBe('u2');
    expect(await findUserIdByEmail(redis.redis, 'ada@example.com')).toBe('u1');
  });
});

describe('users read model: profile edits', () => {
  it('given name and phone changes after a registration, when committed, then the reader sees the edited profile and the lookups stay', async () => {
    await log.apply('UserRegistered', registered);
    await log.apply('UserNameChanged', { userId: 'u1', firstName: 'Grace', lastName: 'Hopper', changedAt: '2026-02-01T00:00:00.000Z' });
    await log.apply('UserPhoneChanged', {
      userId: 'u1',
      phone: '+15550109999',
      previousPhone: '+15550102030',
      changedAt: '2026-02-02T00:00:00.000Z',
    });

    expect(await getUser(redis.redis, 'u1')).toEqual({
      ...profile,
      first_name: 'Grace',
      last_name: 'Hopper',
      phone_number: '+15550109999',
    });
    expect(await findUserIdByUsername(redis.redis, 'Ada_L')).toBe('u1');
    expect(await log.checkpoint()).toBe('3');
  });

  it('given a name change without its last name, when committed, then it is refused and the profile is unchanged', async () => {
    await log.apply('UserRegistered', registered);

    await expect(
      log.commit(log.event('UserNameChanged', { userId: 'u1', firstName: 'Grace', changedAt: '2026-02-01T00:00:00.000Z' })),
    ).rejects.toThrow(ProjectionApplyError);

    expect(await getUser(redis.redis, 'u1')).toEqual(profile);
    expect(await log.checkpoint()).toBe('1');
  });
});

describe('users read model: what it ignores and refuses', () => {
  it('given PasswordChanged and an unknown event after a registration, when committed, then the reader sees the same profile and nothing new', async () => {
    await log.apply('UserRegistered', registered);
    const before = await dumpKeys(redis.redis, 'rm:user*');

    await log.apply('PasswordChanged', {
      userId: 'u1',
      passwordHash: '$argon2id$new',
      changedAt: '2026-02-01T00:00:00.000Z',
      via: 'profile',
    });
    await log.apply('SomethingElse', { userId: 'u9', username: 'ghost', email: 'ghost@example.com' });

    expect(await getUser(redis.redis, 'u1')).toEqual(profile);
    expect(await getUser(redis.redis, 'u9')).toBeNull();
    expect(await findUserIdByUsername(redis.redis, 'ghost')).toBeNull();
    expect(await dumpKeys(redis.redis, 'rm:user*')).toEqual(before);
    // Ignored is not refused: both events count as applied.
    expect(await log.checkpoint()).toBe('3');
  });

  it('given UserRegistered without an e-mail, when committed, then it is refused: no user, no lookup, the checkpoint stays', async () => {
    const { email: _email, ...withoutEmail } = registered;

    await expect(log.commit(log.event('UserRegistered', withoutEmail))).rejects.toThrow(ProjectionApplyError);

    expect(await getUser(redis.redis, 'u1')).toBeNull();
    expect(await findUserIdByUsername(redis.redis, 'Ada_L')).toBeNull();
    expect(await log.checkpoint()).toBeNull();
  });

  it('given a valid registration then one with an empty username in the same batch, when committed, then only the first is readable and the checkpoint stops at it', async () => {
    const broken = { ...registered, userId: 'u2', username: '', email: 'other@example.com' };

    const outcome = await log.commit(log.event('UserRegistered', registered), log.event('UserRegistered', broken));

    expect(outcome).toMatchObject({
      kind: 'committed',
      position: 1n,
      appliedCount: 1,
      failure: { position: 2n, eventType: 'UserRegistered' },
    });
    expect(outcome.kind === 'committed' ? outcome.failure?.message : '').toMatch(/no username/);
    expect(await getUser(redis.redis, 'u1')).toEqual(profile);
    expect(await getUser(redis.redis, 'u2')).toBeNull();
    expect(await findUserIdByEmail(redis.redis, 'other@example.com')).toBeNull();
    expect(await log.checkpoint()).toBe('1');
  });
});

describe('users read model: a deleted account (ADR 042)', () => {
  it('given UserAccountDeleted, when committed, then the user, its e-mail and its username lookups are gone and another user is untouched', async () => {
    const other = {
      ...registered,
      userId: 'u2',
      username: 'Bob',
      firstName: 'Bob',
      lastName: 'Byte',
      email: 'bob@example.com',
      phone: '+15559998877',
    };
    await log.apply('UserRegistered', registered);
    await log.apply('UserRegistered', other);

    await log.apply('UserAccountDeleted', { userId: 'u1', username: 'Ada_L', deletedAt: '2026-02-01T00:00:00.000Z' });

    expect(await getUser(redis.redis, 'u1')).toBeNull();
    expect(await findUserIdByEmail(redis.redis, 'Ada@Example.com')).toBeNull();
    expect(await findUserIdByUsername(redis.redis, 'Ada_L')).toBeNull();
    expect(await findUserIdByUsername(redis.redis, 'Bob')).toBe('u2');
    expect(await findUserIdByEmail(redis.redis, 'bob@example.com')).toBe('u2');
    expect(JSON.stringify(await dumpKeys(redis.redis, 'rm:*'))).not.toMatch(/Lovelace|Ada@Example|15550102030/i);
  });

  it('given a replay of a deleted account whose data reads as erased, when committed, then nothing of it is left and no lookup names "[erased]"', async () => {
    const erased = { ...registered, firstName: '[erased]', lastName: '[erased]', email: '[erased]', phone: '[erased]' };
    await log.apply('UserRegistered', erased);
    await log.apply('UserAccountDeleted', { userId: 'u1', username: 'Ada_L', deletedAt: '2026-02-01T00:00:00.000Z' });

    expect(await getUser(redis.redis, 'u1')).toBeNull();
    expect(await findUserIdByEmail(redis.redis, '[erased]')).toBeNull();
    expect(await dumpKeys(redis.redis, 'rm:user*')).toEqual({});
  });

  it('given the e-mail of the deleted account already registered again by a new account, when the deletion is applied, then the new account keeps the e-mail lookup', async () => {
    await log.apply('UserRegistered', registered);
    await log.apply('UserRegistered', { ...registered, userId: 'u3', username: 'Ada_New', email: 'Ada@Example.com' });
    await log.apply('UserAccountDeleted', { userId: 'u1', username: 'Ada_L', deletedAt: '2026-02-01T00:00:00.000Z' });

    expect(await findUserIdByEmail(redis.redis, 'ada@example.com')).toBe('u3');
  });
});
