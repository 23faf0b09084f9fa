/**
 * Malformed versions of a valid input, for the walk over every API call: wrong types, missing
 * and unknown fields, long and 1 MB strings, deep nesting, invalid JSON, bad amounts. Each
 * variant is JSON text (so numbers like `1.000` and `1e3` can be sent as written) and names the
 * field whose message the answer must carry, when it is about one field.
 */

export interface Variant {
  name: string;
  /** JSON text of the whole input; undefined sends no input at all. */
  json: string | undefined;
  /** The field the answer must name in fieldMessages. */
  field?: string;
}

/** Nesting far past any limit: the depth that overflowed the stack before the guard. */
export const DEEP_NESTING = 5000;
/** A string that still fits in a URL (Node refuses request heads over 16 KB). */
export const LONG_STRING_LENGTH = 8_000;
export const ONE_MB = 1024 * 1024;

export const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

const RAW = '"__raw_json_number__"';
/** The input with one field set to raw JSON text (a number exactly as written, nested arrays). */
const withRaw = (input: Record<string, unknown>, field: string, raw: string) =>
  JSON.stringify({ ...input, [field]: '__raw_json_number__' }).replace(RAW, raw);

/** Values of the wrong type for a field whose valid value is text, or a number. */
const WRONG_TYPES: unknown[] = [true, null, [], {}, ['x'], { nested: 'x' }];
const wrongTypesFor = (valid: unknown): unknown[] => [typeof valid === 'number' ? 'abc' : 12345, ...WRONG_TYPES];

/** Amounts that are not a positive whole number of MLX, as JSON numbers (raw) and as text. */
const BAD_AMOUNTS_RAW = ['-1', '0.5', '1.000', '1e3', '1000', '0'];
const BAD_AMOUNTS_TEXT = ['-1', '0.5', '1e3', '0', '', ' ', '1 000 0', '1,000.5', '10000000000000000', '0x10', 'NaN', 'Infinity'];

export interface VariantOptions {
  /** Fields that may be left out. */
  optional?: readonly string[];
  /** Fields that carry an MLX amount. */
  amountFields?: readonly string[];
  /** The whole input may be left out (every field is optional, as in a first page, ADR 057): no input is valid. */
  inputOptional?: boolean;
  /** How deep the nesting variants go: less for inputs sent in a URL, which Node caps at 16 KB. */
  nestingDepth?: number;
}

/** The variants of an object input, one field at a time, plus the whole-input ones. */
export function objectVariants(valid: Record<string, unknown>, options: VariantOptions = {}): Variant[] {
  const depth = options.nestingDepth ?? DEEP_NESTING;
  const variants: Variant[] = [];
  for (const field of Object.keys(valid)) {
    for (const value of wrongTypesFor(valid[field]))
      variants.push({ name: `${field} = ${JSON.stringify(value)}`, json: JSON.stringify({ ...valid, [field]: value }), field });
    if (!options.optional?.includes(field)) {
      const { [field]: _left, ...rest } = valid;
      variants.push({ name: `${field} missing`, json: JSON.stringify(rest), field });
    }
    variants.push({
      name: `${field} of ${LONG_STRING_LENGTH} characters`,
      json: JSON.stringify({ ...valid, [field]: 'x'.repeat(LONG_STRING_LENGTH) }),
      field,
    });
    variants.push({ name: `${field} nested ${depth} deep`, json: withRaw(valid, field, nestedArrays(depth)) });
  }
  for (const field of options.amountFields ?? []) {
    for (const raw of BAD_AMOUNTS_RAW) variants.push({ name: `${field} = ${raw} (JSON number)`, json: withRaw(valid, field, raw), field });
    for (const text of BAD_AMOUNTS_TEXT)
      variants.push({ name: `${field} = ${JSON.stringify(text)}`, json: JSON.stringify({ ...valid, [field]: text }), field });
  }
  variants.push({ name: 'an unknown field', json: JSON.stringify({ ...valid, unexpectedField: 'x' }), field: 'unexpectedField' });
  const firstField = Object.keys(valid)[0] as string;
  variants.push({ name: 'a 1 MB string', json: JSON.stringify({ ...valid, [firstField]: 'x'.repeat(ONE_MB) }) });
  for (const whole of ['"a string"', '[]', '5', 'null', '[{}]']) variants.push({ name: `the input is ${whole}`, json: whole });
  if (!options.inputOptional) variants.push({ name: 'no input at all', json: undefined });
  return variants.concat(framingVariants(depth));
}

/** What every call gets, input or not: JSON that does not parse and JSON nested far too deep. */
export function framingVariants(depth: number = DEEP_NESTING): Variant[] {
  return [
    { name: 'invalid JSON', json: '{"to":' },
    { name: `${depth} nested arrays`, json: nestedArrays(depth) },
    { name: `${depth} nested objects`, json: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` },
  ];
}

/** Query-string variants of a GET call's input: repeated (array) values, missing, unknown, long, bad amounts. */
export function queryVariants(
  valid: Record<string, string>,
  options: VariantOptions = {},
): Array<{ name: string; query: string; field?: string }> {
  const encode = (params: Array<[string, string]>) => params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const entries = Object.entries(valid);
  const variants: Array<{ name: string; query: string; field?: string }> = [];
  for (const [field] of entries) {
    const others = entries.filter(([f]) => f !== field);
    variants.push({ name: `${field} repeated`, query: encode([...entries, [field, 'again']]), field });
    if (!options.optional?.includes(field)) variants.push({ name: `${field} missing`, query: encode(others), field });
    variants.push({
      name: `${field} of ${LONG_STRING_LENGTH} characters`,
      query: encode([...others, [field, 'x'.repeat(LONG_STRING_LENGTH)]]),
      field,
    });
    variants.push({ name: `${field} as nested JSON`, query: encode([...others, [field, nestedArrays(1000)]]), field });
    variants.push({ name: `${field}[a][b] bracket keys`, query: encode([...others, [`${field}[a][b]`, 'x']]) });
  }
  for (const field of options.amountFields ?? [])
    for (const text of BAD_AMOUNTS_TEXT)
      variants.push({
        name: `${field} = ${JSON.stringify(text)}`,
        query: encode([...entries.filter(([f]) => f !== field), [field, text]]),
        field,
      });
  variants.push({ name: 'an unknown parameter', query: encode([...entries, ['unexpectedField', 'x']]), field: 'unexpectedField' });
  return variants;
}
