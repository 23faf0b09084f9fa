/** argon2id password hashing (OWASP parameters: 19 MiB, 2 iterations, 1 lane). */
import { Algorithm, hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '@quern/core/identity';

const options = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

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
