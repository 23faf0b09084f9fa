/** Test support: identity events as the api appends them. */
import { randomUUID } from 'node:crypto';
import type { EventStore, NewEvent } from '@quern/core';
import { userStream } from '@quern/core/identity';

export function userRegistered(index: number, userId: string = randomUUID()): NewEvent {
  return {
    type: 'UserRegistered',
    data: {
      userId,
      username: `User_${index}`,
      firstName: `First${index}`,
      lastName: `Last${index}`,
      email: `user${index}@example.com`,
      phone: `+1555${String(index).padStart(7, '0')}`,
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
      registeredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    },
  };
}

/** Registers `count` users, each in its own stream; returns their ids in log order. */
export async function registerUsers(store: EventStore, count: number, firstIndex = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = firstIndex; i < firstIndex + count; i += 1) {
    const userId = randomUUID();
    await store.append(userStream(userId), [userRegistered(i, userId)], 'no_stream');
    ids.push(userId);
  }
  return ids;
}
