/**
 * A statement as JSON (ADR 090), the query that asks for one, and its reader: the verifier parses
 * a statement file with the same schema the api answers with.
 */
import { z } from 'zod';
import { HEADER_FIELDS, ROW_FIELDS } from './canonical.js';
import { STATEMENT_MONTH_PATTERN } from './month.js';

export const statementFormats = ['json', 'csv', 'pdf'] as const;
export type StatementFormat = (typeof statementFormats)[number];
export const statementLanguages = ['en', 'es'] as const;
export type StatementLanguage = (typeof statementLanguages)[number];

/** `/statements/{month}`: any text reaches the service, which answers 400 for a malformed month with its own message. */
export const statementParams = z.strictObject({ month: z.string().max(16) });
export const statementQuery = z.strictObject({
  format: z.enum(statementFormats, { error: 'errors:statementFormatInvalid' }).optional(),
  lang: z.enum(statementLanguages, { error: 'errors:statementLanguageInvalid' }).default('en'),
});
export type StatementQuery = z.infer<typeof statementQuery>;

const integer = z.string().regex(/^-?(0|[1-9][0-9]{0,39})$/);
const hash = z.string().regex(/^[0-9a-f]{64}$/);
const covered = <const F extends readonly string[]>(fields: F) =>
  z.object(Object.fromEntries(fields.map((field) => [field, z.string().max(400)])) as { [K in F[number]]: z.ZodString });

export const statementRowSchema = covered(ROW_FIELDS).extend({
  /** Not covered: the counterparty's username or system account, as the log names it today. */
  counterparty: z.string().max(200),
  hash,
});
export type StatementRow = z.infer<typeof statementRowSchema>;

export const kindTotalSchema = z.object({ kind: z.string().max(64), count: z.number().int().min(0), amount: integer, fee: integer });
export const statementTotalsSchema = z.object({
  credits: integer,
  debits: integer,
  fees: integer,
  by_kind: z.array(kindTotalSchema).max(64),
});

export const statementSchema = covered(HEADER_FIELDS).extend({
  object: z.literal('statement'),
  month: z.string().regex(STATEMENT_MONTH_PATTERN),
  status: z.enum(['open', 'closed']),
  header_hash: hash,
  rows: z.array(statementRowSchema),
  closing_balance: integer,
  totals: statementTotalsSchema,
  signature: z.object({
    algorithm: z.literal('Ed25519'),
    /** The signer's public key, raw 32 bytes in base64: compare it with GET /api/v1/statement-key. */
    public_key: z.string().max(100),
    last_hash: hash,
    value: z.string().max(200),
  }),
});
export type Statement = z.infer<typeof statementSchema>;
