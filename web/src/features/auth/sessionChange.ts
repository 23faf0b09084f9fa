/**
 * Tells the data layer that the signed-in user is about to change (sign-in, sign-out, session
 * expiry), so it can forget everything cached for the previous one first. The auth state lives
 * in the main bundle and the data cache in a lazily loaded one; this tiny module connects them
 * without pulling TanStack Query into the home page.
 */
type Listener = () => void;

const listeners = new Set<Listener>();

/** Registers a listener; returns the function that removes it. */
export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Runs every listener, synchronously, before the new auth state is rendered. */
export function notifySessionChange(): void {
  for (const listener of listeners) listener();
}
