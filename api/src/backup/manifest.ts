/**
 * The backup's manifest (ADR 054): what was copied, from which Quern and which point of the log,
 * and each file's size and SHA-256, so a restore refuses a damaged or incomplete copy before it
 * touches DATA_DIR. It is written last: a folder without it is a backup that did not finish.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { JOURNAL_FILE_NAME, SIMULATED_NETWORK_FILE_NAME } from '@quern/adapters/millix';
import { MASTER_KEY_FILE } from '@quern/adapters/personal-data';
import { z } from 'zod';

export const MANIFEST_FILE = 'manifest.json';
/** The same checksums in `sha256sum -c` form, for an operator's own tools. */
export const CHECKSUMS_FILE = 'SHA256SUMS';
export const BACKUP_FORMAT = 'quern-backup';
export const BACKUP_FORMAT_VERSION = 1;

/**
 * The files of DATA_DIR a backup may hold, by what they are (the key vault is KEY_VAULT_FILE).
 * Named by the adapters where they export the name; the rest are spelt where they are opened.
 */
export const DATA_FILES = {
  eventLog: 'events.sqlite',
  masterKey: MASTER_KEY_FILE,
  appSecret: 'app-secret',
  simulatedNetwork: SIMULATED_NETWORK_FILE_NAME,
  localPayPal: 'paypal-local.sqlite',
  millixNodeJournal: JOURNAL_FILE_NAME,
  outbox: 'outbox',
} as const;

const relativePath = z
  .string()
  .min(1)
  .max(500)
  // Written into DATA_DIR by the restore: nothing that could climb out of it.
  .refine(
    (path) => !path.startsWith('/') && !path.split('/').some((part) => part === '..' || part === '' || part === '.'),
    'a plain relative path',
  );

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.literal(BACKUP_FORMAT_VERSION),
  quernVersion: z.string(),
  mode: z.enum(['sandbox', 'live']),
  createdAt: z.string(),
  finishedAt: z.string(),
  eventStore: z.enum(['sqlite', 'kurrentdb']),
  /** The last position in the copied log (a decimal string); null for an empty log or KurrentDB. */
  lastEventPosition: z
    .string()
    .regex(/^[0-9]+$/)
    .nullable(),
  /** Where the personal-data master key is: copied in this backup, or PERSONAL_DATA_KEY's. */
  personalDataKey: z.enum(['in-backup', 'environment']),
  /** The id of the master key the vault's account keys are wrapped under (ADR 055). */
  masterKeyId: z.string().regex(/^[0-9a-f]{16}$/),
  accountKeys: z.number().int().min(0),
  appSecret: z.enum(['in-backup', 'environment']),
  files: z.array(z.object({ path: relativePath, bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = Manifest['files'][number];

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export const quernVersion = (): string =>
  (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export const checksumsText = (files: ManifestFile[]): string => files.map((file) => `${file.sha256}  ${file.path}\n`).join('');
