/**
 * The startup session check: tRPC's identity.session, called with a plain fetch.
 *
 * Why not the tRPC client: this call runs on every first page load, the home page included, and
 * the client would add about 5 kB gzip to that page; every other call happens on pages that
 * load the client anyway. A single tRPC query over GET answers `{ result: { data } }` (this API
 * uses no transformer), and the answer is checked rather than trusted.
 */
import type { SessionOutput } from '@quern/core/identity';

export const sessionUrl = '/trpc/identity.session';

const isSession = (value: unknown): value is SessionOutput =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>).id === 'string' &&
  typeof (value as Record<string, unknown>).email === 'string';

/** The signed-in session, or null for a visitor. Rejects when the server cannot tell. */
export async function fetchSession(signal: AbortSignal): Promise<SessionOutput | null> {
  const response = await fetch(sessionUrl, { credentials: 'same-origin', headers: { accept: 'application/json' }, signal });
  if (!response.ok) throw new Error(`Session check answered HTTP ${response.status}`);
  const body: unknown = await response.json();
  const data = (body as { result?: { data?: unknown } } | null)?.result?.data;
  if (data === null) return null;
  if (isSession(data)) return { id: data.id, email: data.email };
  throw new Error('Session check answered in an unexpected shape');
}
