/**
 * The whole of Quern (api, projections, workers) as the benches run it: production settings on a
 * fresh data directory and a private Redis, on a free loopback port. `stop` removes all of it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, startQuern } from '@quern/api';
import { startPrivateRedis } from '@quern/test-support/redis';

export async function startBenchQuern(name: string, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `quern-bench-${name}-`));
  const redis = await startPrivateRedis();
  const quern = await startQuern(
    loadConfig({
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      REDIS_URL: redis.url,
      REGISTRATIONS_PER_IP_HOUR: '1000',
      ...env,
    }),
    { api: true, projections: true, workers: true },
  );
  return {
    quern,
    dataDir,
    url: quern.url as string,
    async stop() {
      await quern.stop();
      await redis.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
