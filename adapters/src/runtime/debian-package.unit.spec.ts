// The decision behind installing a missing Debian package (redis-server for `npm start`, the test
// set-up's redis-server and chromium), with a recorded command runner instead of a real apt-get:
// present means nothing runs; root runs apt-get; passwordless sudo runs it through `sudo -n`;
// otherwise, or without apt-get, or when apt-get fails, nothing is half-done and the error says
// how to install it by hand.
import { describe, expect, it } from 'vitest';
import { type CommandRunner, ensureDebianPackage, MissingPackageError, planDebianPackage } from './debian-package.js';

const REDIS = { binary: 'redis-server', packageName: 'redis-server', otherwise: 'or set REDIS_URL' };

/** A machine: which commands exist, whether sudo needs no password, whether apt-get succeeds. */
function machine(state: { has: string[]; sudo?: boolean; aptWorks?: boolean }) {
  const ran: string[] = [];
  const installed = new Set(state.has);
  const run: CommandRunner = (commandLine) => {
    ran.push(commandLine);
    const probe = /^command -v (\S+)$/.exec(commandLine);
    if (probe) return { status: installed.has(probe[1] as string) ? 0 : 1 };
    if (commandLine === 'sudo -n true') return { status: state.sudo ? 0 : 1 };
    if (commandLine.includes('apt-get install')) {
      if (!state.aptWorks) return { status: 100 };
      installed.add('redis-server');
      return { status: 0 };
    }
    return { status: 127 };
  };
  return { run, ran, installs: () => ran.filter((c) => c.includes('apt-get install')) };
}

const silent = () => {};

describe('ensureDebianPackage', () => {
  it('given redis-server installed, then it runs nothing else and says present', () => {
    const m = machine({ has: ['redis-server', 'apt-get'] });
    expect(ensureDebianPackage(REDIS, { run: m.run, isRoot: true, log: silent })).toBe('present');
    expect(m.ran).toEqual(['command -v redis-server']);
  });

  it('given root with apt-get, then it installs redis-server with apt-get, non-interactively', () => {
    const m = machine({ has: ['apt-get'], aptWorks: true });
    const lines: string[] = [];
    expect(ensureDebianPackage(REDIS, { run: m.run, isRoot: true, log: (l) => lines.push(l) })).toBe('installed');
    expect(m.installs()).toEqual(['apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server']);
    expect(lines).toEqual(['redis-server is missing: installing the Debian package redis-server with apt-get']);
  });

  it('given a user with passwordless sudo, then it installs through sudo -n', () => {
    const m = machine({ has: ['apt-get'], sudo: true, aptWorks: true });
    expect(ensureDebianPackage(REDIS, { run: m.run, isRoot: false, log: silent })).toBe('installed');
    expect(m.installs()).toEqual([
      "sudo -n sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server'",
    ]);
  });

  it('given a user whose sudo asks for a password, then nothing is installed and the error says how to install it', () => {
    const m = machine({ has: ['apt-get'], sudo: false, aptWorks: true });
    expect(() => ensureDebianPackage(REDIS, { run: m.run, isRoot: false, log: silent })).toThrowError(
      /redis-server is not installed, and it cannot be installed from here \(not root, and sudo asks for a password\)\. Install it: sudo apt-get install redis-server \(Debian\/Ubuntu\); or set REDIS_URL\./,
    );
    expect(m.installs()).toEqual([]);
  });

  it('given a machine without apt-get, then nothing runs and the error gives the other ways', () => {
    const m = machine({ has: [] });
    expect(() => ensureDebianPackage(REDIS, { run: m.run, isRoot: true, log: silent })).toThrowError(MissingPackageError);
    expect(() => ensureDebianPackage(REDIS, { run: m.run, isRoot: true, log: silent })).toThrowError(/no apt-get.*or set REDIS_URL/);
    expect(m.installs()).toEqual([]);
  });

  it('given apt-get failing as root, then the error says it could not install and how to do it by hand', () => {
    const m = machine({ has: ['apt-get'], aptWorks: false });
    expect(() => ensureDebianPackage(REDIS, { run: m.run, isRoot: true, log: silent })).toThrowError(
      /Could not install redis-server with apt-get \(see its output above\)\. Install it: sudo apt-get install redis-server/,
    );
  });
});

describe('planDebianPackage', () => {
  it('given each machine, then it says what ensureDebianPackage would do and installs nothing', () => {
    const present = machine({ has: ['redis-server', 'apt-get'] });
    expect(planDebianPackage(REDIS, { run: present.run, isRoot: false })).toEqual({ kind: 'present' });
    const sudo = machine({ has: ['apt-get'], sudo: true, aptWorks: true });
    expect(planDebianPackage(REDIS, { run: sudo.run, isRoot: false })).toEqual({
      kind: 'install',
      commandLine: "sudo -n sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server'",
    });
    expect(sudo.installs()).toEqual([]);
    const noSudo = machine({ has: ['apt-get'], sudo: false });
    const manual = planDebianPackage(REDIS, { run: noSudo.run, isRoot: false });
    expect(manual.kind).toBe('manual');
    expect(manual.kind === 'manual' && manual.message).toContain('sudo asks for a password');
  });
});
