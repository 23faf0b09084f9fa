/** The mails the workers wrote to DATA_DIR/outbox (a Quern without SMTP), raw; none before the first. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestQuern } from './quern.js';

export function outboxMails(quern: Pick<TestQuern, 'dataDir'>): string[] {
  const dir = join(quern.dataDir, 'outbox');
  try {
    return readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8'));
  } catch {
    return [];
  }
}
