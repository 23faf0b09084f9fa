// Proves the users projection writes the user hash and both lookups from UserRegistered, ignores other events, and refuses an incomplete event.
import type { RecordedEvent } from '@quern/core';
import type { ChainableCommander } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { usersProjection } from './projection.js';

/** Records the commands a projection queues, in place of a real MULTI. */
function recordingTx() {
  const calls: unknown[][] = [];
  const tx = {
    hset(...args: unknown[]) {
      calls.push(['hset', ...args]);
      return tx;
    },
  };
  return { tx: tx as unknown as ChainableCommander, calls };
}

const event = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: 'e1',
  streamId: 'user-u1',
  revision: 0n,
  position: 1n,
  type,
  data,
  metadata: {},
  recordedAt: '2026-01-01T00:00:00.000Z',
});

const registered = {
  userId: 'u1',
  username: 'Ada_L',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+15550102030',
  passwordHash: '$argon2id$secret',
  registeredAt: '2026-01-01T00:00:00.000Z',
};

describe('usersProjection', () => {
  it('given UserRegistered, when applied, then it writes the user hash (without the password hash) and both lookups', () => {
    const { tx, calls } = recordingTx();
    usersProjection.apply(event('UserRegistered', registered), tx);
    expect(calls).toEqual([
      [
        'hset',
        'rm:user:u1',
        {
          id: 'u1',
          username: 'Ada_L',
          first_name: 'Ada',
          last_name: 'Lovelace',
          phone_number: '+15550102030',
          email: 'ada@example.com',
          registered_at: '2026-01-01T00:00:00.000Z',
        },
      ],
      ['hset', 'rm:user-id-by-username', 'ada_l', 'u1'],
      ['hset', 'rm:user-id-by-email', 'ada@example.com', 'u1'],
    ]);
  });

  it('given PasswordChanged or an unknown event, when applied, then nothing is written', () => {
    const { tx, calls } = recordingTx();
    usersProjection.apply(event('PasswordChanged', { userId: 'u1', passwordHash: 'x', changedAt: 'now', via: 'profile' }), tx);
    usersProjection.apply(event('SomethingElse', {}), tx);
    expect(calls).toEqual([]);
  });

  it('given UserRegistered without an e-mail, when applied, then it throws and writes nothing', () => {
    const { tx, calls } = recordingTx();
    const { email: _email, ...withoutEmail } = registered;
    expect(() => usersProjection.apply(event('UserRegistered', withoutEmail), tx)).toThrow(/no email/);
    expect(calls).toEqual([]);
  });
});
