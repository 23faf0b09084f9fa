// Proves the startup session check reads tRPC's answer into a session or null, and refuses
// answers it cannot trust (HTTP errors, unexpected shapes) instead of guessing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchSession, sessionUrl } from './fetchSession.js';

const answer = (body: unknown, status = 200) => vi.fn(async () => new Response(JSON.stringify(body), { status }));

afterEach(() => vi.unstubAllGlobals());

describe('fetchSession', () => {
  it('given a signed-in cookie, then it returns the id and e-mail only, asking same-origin', async () => {
    const fetch = answer({ result: { data: { id: 'u1', email: 'a@example.com', extra: 'x' } } });
    vi.stubGlobal('fetch', fetch);
    await expect(fetchSession(new AbortController().signal)).resolves.toEqual({ id: 'u1', email: 'a@example.com' });
    expect(fetch).toHaveBeenCalledWith(sessionUrl, expect.objectContaining({ credentials: 'same-origin' }));
  });

  it('given a visitor, then it returns null', async () => {
    vi.stubGlobal('fetch', answer({ result: { data: null } }));
    await expect(fetchSession(new AbortController().signal)).resolves.toBeNull();
  });

  it('given a server error, then it rejects', async () => {
    vi.stubGlobal('fetch', answer({ error: { message: 'boom' } }, 500));
    await expect(fetchSession(new AbortController().signal)).rejects.toThrow('HTTP 500');
  });

  it.each([[{}], [{ result: { data: { id: 1, email: 'a@example.com' } } }], [{ result: {} }], [null]])(
    'given the malformed answer %j, then it rejects',
    async (body) => {
      vi.stubGlobal('fetch', answer(body));
      await expect(fetchSession(new AbortController().signal)).rejects.toThrow('unexpected shape');
    },
  );
});
