/**
 * Ids that end up in job ids, Message-IDs, file names and reset tokens. The api makes them with
 * randomUUID; the pattern is a little wider but excludes every separator those formats use
 * ('.', ':', '@', '/'), so an id can never split a token or escape the outbox directory.
 */
import { z } from 'zod';

export const ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

export const idSchema = z.string().regex(ID_PATTERN);
