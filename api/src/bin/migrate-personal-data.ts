/**
 * `npm run migrate:personal-data`: seals a log recorded before personal data was sealed
 * (ADR 042). Stop every Quern process first. Embedded log: DATA_DIR/events.sqlite is moved to
 * DATA_DIR/events.before-sealing.sqlite and copied, sealed, into a new DATA_DIR/events.sqlite.
 * KurrentDB: the log at EVENTSTORE_URL is copied, sealed, into the empty database at
 * MIGRATION_TARGET_EVENTSTORE_URL, which then becomes EVENTSTORE_URL. Afterwards run
 * `npm run projections:rebuild`, and delete the old log once the new one is in service.
 *
 * Environment: DATA_DIR (default ./data), EVENTSTORE_URL, MIGRATION_TARGET_EVENTSTORE_URL,
 * PERSONAL_DATA_KEY (see ADR 042; unset means DATA_DIR/personal-data-key).
 */
import { existsSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openEventStore, openKurrentEventStore, openSqliteEventStore } from '@quern/adapters/eventstore';
import { sealLogInto } from '@quern/adapters/personal-data';

const dataDir = resolve(process.env.DATA_DIR ?? './data');
const sourceUrl = process.env.EVENTSTORE_URL || undefined;
const targetUrl = process.env.MIGRATION_TARGET_EVENTSTORE_URL || undefined;
const personalDataKey = process.env.PERSONAL_DATA_KEY || undefined;

function fail(message: string): never {
  console.error(`[migrate] ${message}`);
  process.exit(1);
}

if (sourceUrl && !targetUrl)
  fail('EVENTSTORE_URL is set: set MIGRATION_TARGET_EVENTSTORE_URL to an empty KurrentDB database to copy into.');
const logFile = join(dataDir, 'events.sqlite');
const oldFile = join(dataDir, 'events.before-sealing.sqlite');
if (!sourceUrl) {
  if (!existsSync(logFile)) fail(`${logFile} does not exist: nothing to migrate.`);
  if (existsSync(oldFile)) fail(`${oldFile} exists already: an earlier migration ran. Check it and move it away first.`);
}

const probe = openEventStore({ eventStoreUrl: targetUrl ?? sourceUrl, dataDir, personalDataKey });
const alreadySealed = probe.personalData.isLogVerified() && !targetUrl;
await probe.close();
if (alreadySealed) {
  console.log('[migrate] the log is already sealed: nothing to do.');
  process.exit(0);
}

if (!sourceUrl) {
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(logFile + suffix)) renameSync(logFile + suffix, oldFile + suffix);
}
const source = sourceUrl ? openKurrentEventStore({ connectionString: sourceUrl }) : openSqliteEventStore({ file: oldFile });
const target = openEventStore({ eventStoreUrl: targetUrl, dataDir, personalDataKey });
let exitCode = 0;
try {
  const report = await sealLogInto(source, target, (copied) => {
    if (copied % 10_000 === 0) console.log(`[migrate] ${copied} events copied`);
  });
  console.log(`[migrate] sealed ${report.events} events in ${report.streams} streams into ${targetUrl ?? logFile}.`);
  console.log(
    `[migrate] now run \`npm run projections:rebuild\`; delete ${sourceUrl ? 'the old database' : oldFile} once Quern runs on the new log.`,
  );
} catch (error) {
  console.error(`[migrate] failed: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await Promise.allSettled([source.close(), target.close()]);
}
process.exit(exitCode);
