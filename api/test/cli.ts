/** Runs one of Quern's operator commands (api/src/bin/NAME.ts) as its own process, as npm run would. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `env` is added to this process's environment (minus the store, network and key settings a test did not give). */
export function runCli(script: string, args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<CliRun> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['EVENTSTORE_URL', 'MILLIX_NODE_URL', 'PERSONAL_DATA_KEY', 'NEW_PERSONAL_DATA_KEY', 'APP_SECRET', 'REDIS_URL'])
    delete base[name];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, `api/src/bin/${script}.ts`), ...args],
      { cwd: REPO_ROOT, env: { ...base, ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}
