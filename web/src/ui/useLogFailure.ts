/** Logs a read that failed; used by every page that keeps what it has on screen, so it sits in ui/. */
import { useEffect } from 'react';

/** Spec section 8: these failures are logged, never shown; the page keeps what it has. */
export function useLogFailure(what: string, error: unknown): void {
  useEffect(() => {
    if (error) console.error(`Dashboard: ${what} could not be loaded`, error);
  }, [what, error]);
}
