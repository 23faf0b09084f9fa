// The deployment files (ADR 051), read as Docker Compose reads them: docker-compose.yml is the live
// deployment and must refuse unsafe settings by construction (no published store or Redis port,
// KurrentDB with TLS and authentication, Redis with a password, every secret required from .env,
// TLS at a Caddy proxy that TRUST_PROXY matches, health checks and restart policies everywhere);
// docker-compose.sandbox.yml is for trying Quern out and may cut corners, but never publishes the
// store or Redis. Where a docker client with compose exists, `docker compose config` checks both.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: unknown[];
  volumes?: (string | { source?: string; target?: string })[];
  healthcheck?: { test?: string | string[]; disable?: boolean };
  restart?: string;
  depends_on?: Record<string, { condition?: string }> | string[];
}
interface ComposeFile {
  services: Record<string, Service>;
}

/** A compose file with its `<<` merge keys resolved, as Compose resolves them. */
function composeFile(file: string): { text: string; compose: ComposeFile } {
  const text = read(file);
  return { text, compose: parse(text, { merge: true }) as ComposeFile };
}

function environmentOf(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) return Object.fromEntries(env.map((entry) => [entry.split('=')[0], entry.split('=').slice(1).join('=')]));
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, String(value)]));
}

const argv = (value: string | string[] | undefined): string => (Array.isArray(value) ? value.join(' ') : (value ?? ''));

/** Each `${NAME...}` interpolation of a compose file: the variable, its operator and its text. */
function interpolations(text: string): { name: string; operator: string; rest: string }[] {
  const found: { name: string; operator: string; rest: string }[] = [];
  // `$$` is Compose's escape for a literal `$`, and comment lines are not read: neither interpolates.
  const read = text.replace(/^\s*#.*$/gm, '').replace(/\$\$/g, '');
  for (const match of read.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[?\-+])([^}]*))?\}/g)) {
    found.push({ name: match[1] as string, operator: match[2] ?? '', rest: match[3] ?? '' });
  }
  return found;
}

/** Services that run once and exit (others wait for them with service_completed_successfully). */
function oneShotServices(compose: ComposeFile): Set<string> {
  const names = new Set<string>();
  for (const service of Object.values(compose.services)) {
    const deps = service.depends_on;
    if (!deps || Array.isArray(deps)) continue;
    for (const [name, dep] of Object.entries(deps)) if (dep.condition === 'service_completed_successfully') names.add(name);
  }
  return names;
}

const QUERN_SERVICES_LIVE = ['api', 'projections', 'workers'];
/** The secrets and live settings that must come from the operator's .env, required. */
const REQUIRED_LIVE = [
  'QUERN_DOMAIN',
  'ACME_EMAIL',
  'APP_SECRET',
  'PERSONAL_DATA_KEY',
  'KURRENTDB_ADMIN_PASSWORD',
  'KURRENTDB_OPS_PASSWORD',
  'REDIS_PASSWORD',
  'SMTP_URL',
  'MAIL_FROM',
  'SUPPORT_EMAIL',
  'MILLIX_NODE_URL',
  'MILLIX_NODE_ID',
  'MILLIX_NODE_SIGNATURE',
  'PAYPAL_CLIENT_ID',
  'PAYPAL_CLIENT_SECRET',
  'PAYPAL_WEBHOOK_ID',
  'METRICS_TOKEN',
];
/** Interpolations allowed a default: settings that are neither secret nor unsafe when left out. */
const OPTIONAL_WITH_DEFAULT = new Set(['LOG_LEVEL']);

describe.each([['docker-compose.yml'], ['docker-compose.sandbox.yml']])('%s', (file) => {
  const { compose } = composeFile(file);

  it('publishes no port of KurrentDB or Redis', () => {
    const stores = Object.entries(compose.services).filter(([, s]) => /kurrentdb:|(^|\/)redis:/.test(s.image ?? ''));
    expect(stores.map(([name]) => name).sort()).toEqual(['kurrentdb', 'redis']);
    for (const [name, service] of stores) {
      expect(service.ports, `${name} must not publish ports`).toBeUndefined();
      expect(JSON.stringify(service), `${name} must stay on the compose network`).not.toContain('network_mode":"host');
    }
  });

  it('gives every service a health check and a restart policy (a one-shot service restarts never)', () => {
    const oneShot = oneShotServices(compose);
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.healthcheck?.test, `${name} has no health check`).toBeTruthy();
      expect(service.healthcheck?.disable, `${name} disables its health check`).not.toBe(true);
      if (oneShot.has(name)) expect(service.restart, `one-shot ${name}`).toBe('no');
      else expect(['unless-stopped', 'always'], `${name} restart policy`).toContain(service.restart);
    }
  });

  it('names every variable it reads in .env.example', () => {
    const example = read('.env.example');
    for (const { name } of interpolations(read(file)))
      expect(example, `${name} is not in .env.example`).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
  });
});

describe('docker-compose.yml, the live deployment', () => {
  const { text, compose } = composeFile('docker-compose.yml');
  const services = compose.services;

  it('runs Quern in live mode with the live stand-ins off', () => {
    for (const name of QUERN_SERVICES_LIVE) {
      const env = environmentOf(services[name] as Service);
      expect(env.QUERN_MODE, name).toBe('live');
      expect(env.PAYPAL_ENV, name).toBe('live');
      expect(env.MILLIX_NETWORK, name).toBe('mainnet');
      expect(env.PUBLIC_URL, name).toMatch(/^https:\/\//);
    }
  });

  it('checks the health of projections and workers by the heartbeat of every part each runs (api/src/main.ts)', () => {
    expect(argv(services.projections?.healthcheck?.test)).toMatch(/healthcheck-heartbeat\.mjs projections$/);
    expect(argv(services.workers?.healthcheck?.test)).toMatch(/healthcheck-heartbeat\.mjs workers dispatcher deposits$/);
  });

  it('never runs KurrentDB insecure', () => {
    expect(text).not.toMatch(/--insecure/i);
    for (const [name, service] of Object.entries(services)) {
      const env = environmentOf(service);
      for (const variable of ['KURRENTDB_INSECURE', 'EVENTSTORE_INSECURE']) expect(env[variable], `${name} ${variable}`).toBeUndefined();
      expect(argv(service.command), name).not.toMatch(/insecure/i);
    }
    const kurrent = environmentOf(services.kurrentdb as Service);
    expect(kurrent.KURRENTDB_CERTIFICATE_FILE).toBeTruthy();
    expect(kurrent.KURRENTDB_CERTIFICATE_PRIVATE_KEY_FILE).toBeTruthy();
    expect(kurrent.KURRENTDB_TRUSTED_ROOT_CERTIFICATES_PATH).toBeTruthy();
    expect(kurrent.KURRENTDB_DEFAULT_ADMIN_PASSWORD).toMatch(/^\$\{KURRENTDB_ADMIN_PASSWORD:\?/);
  });

  it('generates the certificates with the official tool, once, and keeps no CA key', () => {
    const certs = services['kurrentdb-certs'] as Service;
    expect(certs.image).toMatch(/^eventstore\/es-gencert-cli:\d+\.\d+\.\d+$/);
    const script = argv(certs.command);
    expect(script).toContain('create-ca');
    expect(script).toMatch(/create-node .*-dns-names kurrentdb/);
    expect(script).toContain('rm -f /certs/ca/ca.key');
    expect(services.kurrentdb?.depends_on).toMatchObject({ 'kurrentdb-certs': { condition: 'service_completed_successfully' } });
  });

  it('connects every Quern process to KurrentDB as admin over TLS, verified against the mounted CA', () => {
    for (const name of QUERN_SERVICES_LIVE) {
      const service = services[name] as Service;
      const connection = environmentOf(service).EVENTSTORE_URL ?? '';
      expect(connection, name).toMatch(/^kurrentdb:\/\/admin:\$\{KURRENTDB_ADMIN_PASSWORD:\?[^}]+\}@/);
      // Parsed as the client parses it, with the password interpolated as Compose would.
      const url = new URL(connection.replace(/\$\{KURRENTDB_ADMIN_PASSWORD:\?[^}]+\}/, 'interpolated'));
      expect(url.protocol, name).toBe('kurrentdb:');
      expect(url.username, name).toBe('admin');
      expect(url.password, name).toBe('interpolated');
      expect(url.host, name).toBe('kurrentdb:2113');
      expect(url.searchParams.get('tls'), name).toBe('true');
      const caFile = url.searchParams.get('tlsCAFile') ?? '';
      expect(caFile, name).toMatch(/^\/certs\//);
      const mounted = (service.volumes ?? []).map(String).some((volume) => /^kurrentdb-certs:\/certs(:ro)?$/.test(volume));
      expect(mounted, `${name} mounts the certificates`).toBe(true);
    }
    // The client library reads these connection-string options (checked against its parser).
    const parser = readFileSync(join(repoRoot, 'node_modules/@kurrent/kurrentdb-client/dist/Client/parseConnectionString.js'), 'utf8');
    expect(parser).toContain('tlsCAFile');
  });

  it('blanks, in the Quern processes, the .env secrets they only need inside EVENTSTORE_URL and REDIS_URL', () => {
    for (const name of QUERN_SERVICES_LIVE) {
      const env = environmentOf(services[name] as Service);
      for (const variable of ['KURRENTDB_ADMIN_PASSWORD', 'KURRENTDB_OPS_PASSWORD', 'REDIS_PASSWORD', 'ACME_EMAIL'])
        expect(env[variable], `${name} ${variable}`).toBe('');
    }
  });

  it('protects Redis with a password that Quern and the health check use', () => {
    const redis = services.redis as Service;
    // The password reaches redis-server from its environment, so `docker inspect`'s command line does not show it.
    expect(argv(redis.command)).toMatch(/^sh -c exec redis-server .*--requirepass "\$\$REDISCLI_AUTH"$/);
    expect(argv(redis.command)).not.toContain('REDIS_PASSWORD');
    expect(environmentOf(redis).REDISCLI_AUTH).toMatch(/^\$\{REDIS_PASSWORD:\?/);
    for (const name of QUERN_SERVICES_LIVE) {
      expect(environmentOf(services[name] as Service).REDIS_URL, name).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD:\?[^}]+\}@redis:6379$/);
    }
  });

  it('takes every secret from .env as a required interpolation (VAR:?message), so a missing one stops docker compose up', () => {
    const found = interpolations(text);
    for (const name of REQUIRED_LIVE) {
      const uses = found.filter((use) => use.name === name);
      expect(uses.length, `${name} is not used`).toBeGreaterThan(0);
      for (const use of uses) {
        expect(use.operator, `${name} must be required`).toBe(':?');
        expect(use.rest.trim().length, `${name} needs a message`).toBeGreaterThan(10);
      }
    }
    for (const use of found) {
      if (OPTIONAL_WITH_DEFAULT.has(use.name)) continue;
      expect(use.operator, `${use.name} must be required (or listed as optional with a default)`).toBe(':?');
    }
    // No secret written into the file itself.
    for (const name of QUERN_SERVICES_LIVE) {
      const env = environmentOf(services[name] as Service);
      for (const variable of ['APP_SECRET', 'PERSONAL_DATA_KEY', 'SMTP_URL', 'PAYPAL_CLIENT_SECRET', 'MILLIX_NODE_SIGNATURE']) {
        expect(env[variable], `${name} ${variable}`).toMatch(new RegExp(`^\\$\\{${variable}:\\?`));
      }
    }
  });

  it('puts the api behind a Caddy proxy that alone publishes ports, and TRUST_PROXY trusts exactly that hop', () => {
    const published = Object.entries(services).filter(([, service]) => service.ports !== undefined);
    expect(published.map(([name]) => name)).toEqual(['proxy']);
    const proxy = services.proxy as Service;
    expect(proxy.image).toMatch(/^caddy:\d+(\.\d+)*$/);
    expect((proxy.ports ?? []).map(String)).toEqual(expect.arrayContaining(['80:80', '443:443']));
    const caddyfileMount = (proxy.volumes ?? []).map(String).find((volume) => volume.endsWith(':/etc/caddy/Caddyfile:ro'));
    expect(caddyfileMount).toBe('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    const caddyfile = read('deploy/Caddyfile');
    expect(caddyfile).toMatch(/^\{\$QUERN_DOMAIN\} \{$/m);
    expect(caddyfile).toMatch(/^\s*reverse_proxy api:3000$/m);
    // The proxy's log would hold full URLs (queries): the api's access log is the one kept.
    expect(caddyfile).not.toMatch(/^\s*log\b/m);
    // One proxy in front: one hop. Every Quern process agrees (the api uses it; the others ignore it).
    for (const name of QUERN_SERVICES_LIVE) expect(environmentOf(services[name] as Service).TRUST_PROXY, name).toBe('1');
    expect(environmentOf(proxy).QUERN_DOMAIN).toMatch(/^\$\{QUERN_DOMAIN:\?/);
  });

  it('leaves every required setting empty in .env.example, so `cp .env.example .env` still stops at the first one unfilled', () => {
    const example = read('.env.example');
    for (const name of REQUIRED_LIVE) {
      const line = new RegExp(`^${name}=(.*)$`, 'm').exec(example);
      expect(line, `${name} is not in .env.example`).not.toBeNull();
      expect(line?.[1], `${name} is pre-filled in .env.example`).toBe('');
    }
  });

  it('keeps .env out of git and out of the image', () => {
    expect(read('.gitignore')).toMatch(/^\.env$/m);
    expect(read('.dockerignore')).toMatch(/^\.env$/m);
  });
});

describe('docker-compose.sandbox.yml, for trying Quern out', () => {
  const { compose } = composeFile('docker-compose.sandbox.yml');

  it('runs Quern in sandbox mode, published on this machine only', () => {
    const published = Object.entries(compose.services).filter(([, service]) => service.ports !== undefined);
    expect(published.map(([name]) => name)).toEqual(['quern']);
    expect(compose.services.quern?.ports?.map(String)).toEqual(['127.0.0.1:3000:3000']);
    expect(environmentOf(compose.services.quern as Service).QUERN_MODE).toBe('sandbox');
  });
});

/**
 * The Compose client to check the files with: `docker compose` (the plugin), else the standalone
 * `docker-compose`; why neither, otherwise. `config` reads and interpolates without a daemon.
 */
function composeClient(): { command: string[] } | { command: undefined; reason: string } {
  const reasons: string[] = [];
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    const probe = spawnSync(command[0] as string, [...command.slice(1), 'version'], { encoding: 'utf8', timeout: 20_000 });
    if (!probe.error && probe.status === 0) return { command };
    reasons.push(`${command.join(' ')}: ${probe.error ? probe.error.message : (probe.stderr || probe.stdout).trim().split('\n')[0]}`);
  }
  return { command: undefined, reason: reasons.join('; ') };
}

const client = composeClient();
if (!client.command) console.info(`[compose spec] skipping \`docker compose config\`: no Compose client (${client.reason})`);

describe.skipIf(!client.command)('docker compose config', () => {
  const [program, ...prefix] = client.command ?? [''];
  /** `docker compose config` of a repository file with `dotEnv` as the operator's .env (project directory: a temporary one). */
  const run = (file: string, dotEnv: string[]) => {
    const project = mkdtempSync(join(tmpdir(), 'quern-compose-'));
    try {
      writeFileSync(join(project, '.env'), `${dotEnv.join('\n')}\n`);
      return spawnSync(program as string, [...prefix, '--project-directory', project, '-f', join(repoRoot, file), 'config', '--quiet'], {
        encoding: 'utf8',
        timeout: 120_000,
        // Only the .env may supply values: the caller's environment must not fill a gap.
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      });
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  };

  it('accepts both files with every setting given, and the live one refuses each missing secret by name', () => {
    const full = REQUIRED_LIVE.map((name) => `${name}=${name === 'QUERN_DOMAIN' ? 'pay.example.com' : `value-of-${name.toLowerCase()}`}`);
    const live = run('docker-compose.yml', full);
    expect(live.status, live.stderr).toBe(0);
    const sandbox = run('docker-compose.sandbox.yml', []);
    expect(sandbox.status, sandbox.stderr).toBe(0);
    for (const missing of ['APP_SECRET', 'REDIS_PASSWORD', 'PAYPAL_WEBHOOK_ID']) {
      const refused = run(
        'docker-compose.yml',
        full.filter((line) => !line.startsWith(`${missing}=`)),
      );
      expect(refused.status, missing).not.toBe(0);
      expect(refused.stderr).toContain(`set ${missing} in .env`);
    }
    // Five Compose runs (the standalone client takes seconds each to start on a busy machine).
  }, 300_000);
});
