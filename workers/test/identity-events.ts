/** Test support: identity events as the api appends them. */
import { randomUUID } from 'node:crypto';
import type { EventStore } from '@quern/core';
import { userStream } from '@quern/core/identity';

export interface TestUser {
  userId: string;
  email: string;
  firstName: string;
}

/**
 * A registered account; `verified` (the default) also records its owner proving the e-mail
 * address (ADR 046), without which no mail but the verification goes to it.
 */
export async function registerUser(
  store: EventStore,
  index: number,
  language?: 'en' | 'es',
  { verified = true, email }: { verified?: boolean; email?: string } = {},
): Promise<TestUser> {
  const userId = randomUUID();
  const user = { userId, email: email ?? `user${index}.${userId.slice(0, 8)}@example.com`, firstName: `First${index}` };
  await store.append(
    userStream(userId),
    [
      {
        type: 'UserRegistered',
        data: {
          ...user,
          username: `user_${index}_${userId.slice(0, 8)}`,
          lastName: `Last${index}`,
          phone: `+1555${String(index).padStart(7, '0')}`,
          passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
          registeredAt: new Date().toISOString(),
        },
        metadata: language ? { language } : {},
      },
      ...(verified
        ? [{ type: 'EmailVerified', data: { userId, requestId: randomUUID(), via: 'link', verifiedAt: new Date().toISOString() } }]
        : []),
    ],
    'no_stream',
  );
  return user;
}

export async function requestPasswordReset(store: EventStore, userId: string, expiresAt: Date, language?: 'en' | 'es'): Promise<string> {
  const requestId = randomUUID();
  await store.append(
    userStream(userId),
    [
      {
        type: 'PasswordResetRequested',
        data: { userId, requestId, expiresAt: expiresAt.toISOString(), requestedAt: new Date().toISOString() },
        metadata: language ? { language } : {},
      },
    ],
    'any',
  );
  return requestId;
}
