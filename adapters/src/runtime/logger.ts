/**
 * The one logger of every server process (api, projections, workers, adapters): pino, one JSON
 * object per line on stdout, so a log shipper reads fields instead of parsing text (ADR 052).
 *
 * Nothing personal or secret may reach a line. Callers never pass request bodies, query strings,
 * cookies or authorization headers; on top of that, two nets catch what slips through:
 * - redaction by key: a field named like a secret (password, email, token, authorization, ...)
 *   at the top level or one or two levels down is replaced by "[redacted]";
 * - scrubbing of text: passwords in URLs, e-mail addresses, API keys (qk_live_/qk_test_) and
 *   bearer tokens are replaced in every message and in logged errors' messages and stacks;
 * - logged errors keep a fixed set of fields (type, message, stack, code, command name, cause),
 *   never the other fields libraries attach to them.
 */
import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';
import type { Logger } from '@quern/core';

/** A pino logger: fields and a message per line. */
export type JsonLogger = PinoLogger;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const REDACTED = '[redacted]';

/** Field names whose values never reach a line, wherever a caller puts them. */
export const SECRET_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'email',
  'phone',
  'firstName',
  'lastName',
  'token',
  'secret',
  'apiKey',
  'api_key',
  'key',
  'authorization',
  'cookie',
  'set-cookie',
  'recoveryCodes',
  'signature',
  'body',
  'query',
] as const;

/** pino's redaction paths: each field at the top level and one or two levels down (req.headers.cookie). */
const REDACT_PATHS = SECRET_FIELDS.flatMap((field) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`;
  const join = (prefix: string) => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key, join('*'), join('*.*')];
});

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const API_KEY = /qk_(?:live|test)_[A-Za-z0-9_-]+/g;
const BEARER = /(bearer\s+)[^\s"',;]+/gi;
/** `scheme://user:password@`: a connection string's password (Redis, KurrentDB, SMTP URLs). */
const URL_PASSWORD = /([A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:/?#@]*:)[^\s/?#@]+@/g;

/** Text with URL passwords, e-mail addresses, API keys and bearer tokens replaced (the text nets of the module comment). */
export function scrubText(text: string): string {
  return text.replace(URL_PASSWORD, `$1${REDACTED}@`).replace(EMAIL, REDACTED).replace(API_KEY, REDACTED).replace(BEARER, `$1${REDACTED}`);
}

/** How deep a chain of causes is followed (a cycle or a very long chain stops there). */
const MAX_CAUSE_DEPTH = 5;

/**
 * An error as a fixed set of fields: type, scrubbed message and stack, a string code, a Redis
 * command's name and the cause, the same way. Never the rest of its own fields: libraries hang
 * their inputs there (ioredis a command's keys and values, KurrentDB the connection string with
 * its password, nodemailer the server's reply and the rejected recipients).
 */
function serializedError(error: Error, depth: number): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    // The class, as pino names it (a library's error may put a code in `name`).
    type: typeof error.constructor === 'function' && error.constructor.name ? error.constructor.name : error.name,
    message: scrubText(String(error.message ?? '')),
  };
  if (typeof error.stack === 'string') fields.stack = scrubText(error.stack);
  const { code, command, cause } = error as { code?: unknown; command?: unknown; cause?: unknown };
  if (typeof code === 'string') fields.code = scrubText(code);
  const commandName = (command as { name?: unknown } | undefined)?.name;
  if (typeof commandName === 'string') fields.command = scrubText(commandName);
  if (cause !== undefined && depth < MAX_CAUSE_DEPTH) fields.cause = scrubbedError(cause, depth + 1);
  return fields;
}

/** A thrown value as log fields: an error as `serializedError`, a text scrubbed, anything else as its type only. */
function scrubbedError(error: unknown, depth = 0): unknown {
  if (error instanceof Error) return serializedError(error, depth);
  if (typeof error === 'string') return scrubText(error);
  if (error === null || typeof error !== 'object') return error;
  return { type: 'object' };
}

export interface LoggerOptions {
  /** LOG_LEVEL; unset or unknown: info. */
  level?: string;
  /** Where lines go (tests); stdout by default. */
  destination?: DestinationStream;
}

export const isLogLevel = (value: unknown): value is LogLevel => LOG_LEVELS.includes(value as LogLevel);

export function createLogger(options: LoggerOptions = {}): PinoLogger {
  const settings: pino.LoggerOptions = {
    level: isLogLevel(options.level) ? options.level : 'info',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { err: (error) => scrubbedError(error), error: (error) => scrubbedError(error) },
    hooks: {
      // Every string argument (the message and its printf parameters) is scrubbed.
      logMethod(args, method) {
        const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as Parameters<typeof method>;
        method.apply(this, scrubbed);
      },
    },
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

/** The process's logger; api/src/main.ts sets its level from LOG_LEVEL once the configuration is read. */
export const log: PinoLogger = createLogger({ level: process.env.LOG_LEVEL });

/** A `[part] message` line as `{ part, msg }`, so the long-running parts' lines can be filtered by part. */
const PART_PREFIX = /^\[([a-z][a-z-]*)\] ([\s\S]*)$/;

/** The core Logger port over a pino logger (the process's by default). */
export function partLogger(target: PinoLogger = log): Logger {
  const write = (level: 'info' | 'error', message: string) => {
    const part = PART_PREFIX.exec(message);
    if (part) target[level]({ part: part[1] }, part[2] as string);
    else target[level](message);
  };
  return { info: (message) => write('info', message), error: (message) => write('error', message) };
}
