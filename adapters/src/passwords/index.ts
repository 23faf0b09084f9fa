/** argon2id password hashing (OWASP parameters: 19 MiB, 2 iterations, 1 lane). */
import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '@quern/core/identity';

// Algorithm.Argon2id is an ambient const enum, which isolated modules cannot read: its value is 2.
const ARGON2ID = 2;
const options = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function createPasswordHasher(): PasswordHasher {
  // Verifying unknown accounts against a real hash makes their cost equal to a wrong password.
  const dummyHash = hash('quern-timing-equaliser', options);
  return {
    hash: (password) => hash(password, options),
    verify: async (passwordHash, password) => {
      if (!passwordHash) {
        await verify(await dummyHash, password);
        return false;
      }
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    },
  };
}
