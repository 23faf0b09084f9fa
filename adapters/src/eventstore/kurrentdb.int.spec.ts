// Proves the KurrentDB adapter meets the event-store contract against a real KurrentDB: the one at
// EVENTSTORE_URL when set, else a throwaway container of the image docker-compose.yml runs. With
// neither, the run is reported as skipped with the reason printed, never as passed.
import { readFileSync } from 'node:fs';
import { GenericContainer, getContainerRuntimeClient, type StartedTestContainer, Wait } from 'testcontainers';
import { afterAll, beforeAll, it } from 'vitest';
import { describeEventStoreContract } from '../../test/eventstore/contract.js';
import { openKurrentEventStore } from './kurrentdb.js';

const KURRENTDB_PORT = 2113;
const STARTUP_TIMEOUT_MS = 120_000;

/** The KurrentDB image of docker-compose.yml, so that tests and deployment cannot drift apart. */
function composeKurrentImage(): string {
  const compose = readFileSync(new URL('../../../../docker-compose.yml', import.meta.url), 'utf8');
  const image = /^\s*image:\s*(\S*kurrentdb:\S+)\s*$/m.exec(compose)?.[1];
  if (!image) throw new Error('docker-compose.yml names no kurrentdb image');
  return image;
}

type Target = { kind: 'url'; url: string } | { kind: 'container'; image: string } | { kind: 'skip'; reason: string };

async function chooseTarget(): Promise<Target> {
  const url = process.env.EVENTSTORE_URL;
  if (url) return { kind: 'url', url };
  try {
    await getContainerRuntimeClient();
    return { kind: 'container', image: composeKurrentImage() };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { kind: 'skip', reason: `EVENTSTORE_URL is not set and no container runtime was found (${why})` };
  }
}

const target = await chooseTarget();

if (target.kind === 'skip') {
  console.warn(`[kurrentdb.int.spec] KurrentDB contract SKIPPED: ${target.reason}`);
  it('KurrentDB event store contract', (ctx) => {
    ctx.skip(target.reason);
  });
} else {
  let container: StartedTestContainer | undefined;
  let connectionString = target.kind === 'url' ? target.url : '';

  beforeAll(async () => {
    if (target.kind !== 'container') return;
    // Insecure single node, as in docker-compose.sandbox.yml (the live file adds TLS and auth, ADR
    // 051); the image's own HEALTHCHECK says when it accepts requests. Server-side projections are
    // not used by Quern, so they stay off.
    container = await new GenericContainer(target.image)
      .withExposedPorts(KURRENTDB_PORT)
      .withEnvironment({ KURRENTDB_CLUSTER_SIZE: '1', KURRENTDB_INSECURE: 'true', KURRENTDB_RUN_PROJECTIONS: 'None' })
      .withWaitStrategy(Wait.forHealthCheck())
      .withStartupTimeout(STARTUP_TIMEOUT_MS)
      .start();
    connectionString = `kurrentdb://${container.getHost()}:${container.getMappedPort(KURRENTDB_PORT)}?tls=false`;
  }, STARTUP_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    await container?.stop();
  });

  describeEventStoreContract(`KurrentDB (${target.kind === 'url' ? 'EVENTSTORE_URL' : target.image})`, async () =>
    openKurrentEventStore({ connectionString }),
  );
}
