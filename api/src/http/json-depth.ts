/**
 * How deeply a JSON text nests, measured by one linear scan of the raw text before anything
 * parses it. JSON.parse itself copes with deep nesting, but what runs after it does not:
 * tRPC re-serialises a pre-parsed body with JSON.stringify, zod and any other walker recurse,
 * and a body of 5,000 nested arrays overflowed the stack there. Counting brackets on the raw
 * bytes costs no recursion and stops at the first level past the limit.
 */

/**
 * Deepest nesting any request may carry. Quern's deepest legitimate input is a tRPC batch
 * (`{"0":{"field":"value"}}`, three levels); 32 leaves room for future forms and stays
 * thousands of frames below where a recursive walk overflows the stack.
 */
export const JSON_DEPTH_MAX = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * True when the text opens more than `depthMax` arrays or objects at once. Brackets inside
 * strings do not count; a backslash escapes the next character inside a string. Works on UTF-8
 * bytes or on a string: every character it looks at is ASCII, and in UTF-8 no byte of a
 * multi-byte character is below 0x80, so a bracket byte is always a bracket. Malformed JSON is
 * not judged here (the parser refuses it next); a stray closer never takes the count below
 * zero, so closers sent first cannot buy room for deeper nesting later.
 */
export function jsonNestsDeeperThan(text: Uint8Array | string, depthMax: number = JSON_DEPTH_MAX): boolean {
  const codeAt = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text[i] as number;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = codeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > depthMax) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth = Math.max(0, depth - 1);
    }
  }
  return false;
}
