/**
 * Installs a missing Debian package the way a fresh machine needs it, or says how: used by
 * `npm start` for redis-server (adapters/src/redis) and by the test set-up for redis-server and
 * chromium (test-support), so both install the same way. apt-get runs only when it can succeed
 * without a prompt: as root, or through passwordless sudo (`sudo -n`). Otherwise nothing runs
 * and the error says which command to run by hand.
 */
import { spawnSync } from 'node:child_process';

/** Runs a shell command line; `inherit` shows its output (apt-get's progress) to the operator. */
export type CommandRunner = (commandLine: string, options?: { inherit?: boolean }) => { status: number | null };

export const shellRunner: CommandRunner = (commandLine, options = {}) =>
  spawnSync('sh', ['-c', commandLine], { stdio: options.inherit ? 'inherit' : 'ignore' });

export class MissingPackageError extends Error {}

export interface DebianPackage {
  /** The program that must be on PATH afterwards (redis-server, chromium). */
  binary: string;
  /** The Debian package that provides it. */
  packageName: string;
  /** What to tell someone who is not on Debian, or who prefers another way (brew, REDIS_URL). */
  otherwise: string;
}

export interface InstallOptions {
  run?: CommandRunner;
  /** Whether this process runs as root (default: its uid is 0). */
  isRoot?: boolean;
  log?: (line: string) => void;
}

const installCommand = (packageName: string) =>
  `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packageName}`;

/** What would happen to a missing package: nothing (present), this apt-get command line, or a message for the operator. */
export type InstallPlan = { kind: 'present' } | { kind: 'install'; commandLine: string } | { kind: 'manual'; message: string };

/**
 * Decides without installing anything (it only asks `command -v` and `sudo -n true`): what
 * ensureDebianPackage will do, and what `npm run doctor` reports before `npm start` does it.
 */
export function planDebianPackage(pkg: DebianPackage, options: Omit<InstallOptions, 'log'> = {}): InstallPlan {
  const run = options.run ?? shellRunner;
  const has = (binary: string) => run(`command -v ${binary}`).status === 0;
  if (has(pkg.binary)) return { kind: 'present' };
  const byHand = `Install it: sudo apt-get install ${pkg.packageName} (Debian/Ubuntu); ${pkg.otherwise}.`;
  if (!has('apt-get')) return { kind: 'manual', message: `${pkg.binary} is not installed and this machine has no apt-get. ${byHand}` };
  // The runner already hands the line to `sh -c`; sudo needs its own shell to run the whole `&&` chain as root.
  if (options.isRoot ?? process.getuid?.() === 0) return { kind: 'install', commandLine: installCommand(pkg.packageName) };
  if (run('sudo -n true').status === 0) return { kind: 'install', commandLine: `sudo -n sh -c '${installCommand(pkg.packageName)}'` };
  return {
    kind: 'manual',
    message: `${pkg.binary} is not installed, and it cannot be installed from here (not root, and sudo asks for a password). ${byHand}`,
  };
}

/** Resolves to `present` when already installed, `installed` after apt-get; throws MissingPackageError with the way to install it otherwise. */
export function ensureDebianPackage(pkg: DebianPackage, options: InstallOptions = {}): 'present' | 'installed' {
  const run = options.run ?? shellRunner;
  const plan = planDebianPackage(pkg, options);
  if (plan.kind === 'present') return 'present';
  if (plan.kind === 'manual') throw new MissingPackageError(plan.message);
  (options.log ?? console.log)(`${pkg.binary} is missing: installing the Debian package ${pkg.packageName} with apt-get`);
  if (run(plan.commandLine, { inherit: true }).status !== 0 || run(`command -v ${pkg.binary}`).status !== 0) {
    const byHand = `Install it: sudo apt-get install ${pkg.packageName} (Debian/Ubuntu); ${pkg.otherwise}.`;
    throw new MissingPackageError(`Could not install ${pkg.packageName} with apt-get (see its output above). ${byHand}`);
  }
  return 'installed';
}
