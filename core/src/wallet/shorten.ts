/**
 * The spec's display rule for long identifiers (addresses, transaction hashes). Display only:
 * the full text is what gets copied, stored and compared.
 */
import { BASE58_ALPHABET } from './base58.js';
import { ADDRESS_VERSION_MARKER, millixNetworks } from './address.js';

export const SHORTEN_ELLIPSIS = '…';
/** Characters kept from the start of the identifier. */
export const SHORTEN_HEAD_CHARS = 10;
/**
 * Characters of an address's key identifier that are dropped: a 34-character key identifier
 * then shows its last 10, the same width as the head.
 */
export const SHORTEN_KEY_IDENTIFIER_SKIP_CHARS = 24;
/** Characters kept from the end of an identifier without a version marker. */
export const SHORTEN_TAIL_CHARS = 10;
/** Anything this long or shorter is shown whole: shortening it would not make it shorter. */
export const SHORTEN_LENGTH_MIN = SHORTEN_HEAD_CHARS + SHORTEN_ELLIPSIS.length + SHORTEN_TAIL_CHARS;

const base58Only = new RegExp(`^[${BASE58_ALPHABET}]+$`);

/**
 * Splits an address-like identifier on its version marker. Both pieces must be Base58, so a
 * username or e-mail that happens to contain "lal" ("carlala@example.com") is never split.
 */
function splitOnMarker(text: string): [string, string] | undefined {
  for (const network of millixNetworks) {
    const marker = ADDRESS_VERSION_MARKER[network];
    const at = text.indexOf(marker);
    if (at === -1) continue;
    const head = text.slice(0, at);
    const tail = text.slice(at + marker.length);
    if (base58Only.test(head) && base58Only.test(tail)) return [head, tail];
  }
  return undefined;
}

/**
 * - Address-like (two Base58 pieces around "0a0" or "lal") whose second piece is longer than 24
 *   characters: the first 10 characters of the first piece, '…', then the second piece from its
 *   25th character on. "16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM0a016UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM"
 *   (33-character parts) becomes "16UwLL9Ris…BQ7wMtjvM".
 * - Anything else longer than 21 characters: the first 10, '…', the last 10 (transaction hashes).
 * - Shorter text is returned unchanged.
 */
export function shortenIdentifier(text: string): string {
  const pieces = splitOnMarker(text);
  if (pieces && pieces[1].length > SHORTEN_KEY_IDENTIFIER_SKIP_CHARS) {
    return pieces[0].slice(0, SHORTEN_HEAD_CHARS) + SHORTEN_ELLIPSIS + pieces[1].slice(SHORTEN_KEY_IDENTIFIER_SKIP_CHARS);
  }
  if (text.length <= SHORTEN_LENGTH_MIN) return text;
  return text.slice(0, SHORTEN_HEAD_CHARS) + SHORTEN_ELLIPSIS + text.slice(-SHORTEN_TAIL_CHARS);
}
