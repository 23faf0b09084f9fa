/**
 * The contract with the web build: dist/prerendered/manifest.json names the languages, the
 * prerendered page of each path, the shell (client routes without a page of their own), the
 * not-found page, the client's route patterns and the CSP hashes of the inline scripts in every
 * prerendered file. Language and page names become file paths, so they must be plain names: a
 * manifest that could point outside dist is refused, not served.
 */
import { z } from 'zod';

const plainName = z.string().regex(/^[A-Za-z0-9_-]+$/, 'a plain name (letters, digits, - and _)');
/** A CSP hash source; the quotes CSP requires are added when the build leaves them out. */
const scriptHash = z.string().regex(/^'?sha(256|384|512)-[A-Za-z0-9+/_-]+={0,2}'?$/, 'a CSP hash source');

const manifestSchema = z
  .object({
    languages: z.array(plainName).min(1),
    defaultLanguage: plainName,
    pages: z.record(z.string().startsWith('/'), plainName),
    shell: plainName,
    notFound: plainName,
    routes: z.array(z.string()),
    scriptHashes: z.array(scriptHash),
  })
  .refine((manifest) => manifest.languages.includes(manifest.defaultLanguage), {
    message: 'defaultLanguage must be one of languages',
    path: ['defaultLanguage'],
  });

export type PrerenderManifest = z.infer<typeof manifestSchema>;

/** Parses the manifest's text; throws, naming the file, when it is not JSON or breaks the contract. */
export function parseManifest(text: string, file: string): PrerenderManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${file} does not match the prerender contract: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The manifest's hashes as CSP source expressions (single-quoted). */
export function hashSources(manifest: PrerenderManifest): string[] {
  return manifest.scriptHashes.map((hash) => (hash.startsWith("'") ? hash : `'${hash}'`));
}
