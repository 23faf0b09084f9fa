/**
 * Holds the session for the whole app. On start it asks the server (identity.session) whether the
 * httpOnly session cookie is valid; pages then call signIn/signOut after login, register and
 * logout so the navigation and the route guards follow at once.
 */
import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { fetchSession } from './fetchSession.js';
import { authReducer, initialAuthState, type AuthState } from './authState.js';
import { notifySessionChange } from './sessionChange.js';
import { rememberSignedIn } from './signedInHint.js';

export interface Auth {
  state: AuthState;
  signIn(session: { id: string; email: string }): void;
  signOut(): void;
}

const AuthContext = createContext<Auth | null>(null);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}

/**
 * `initialState` lets tests fix the session (a visitor, a signed-in user, a check in progress)
 * without a server; the app omits it, starts loading and runs the startup check. A failed check
 * (server down) leaves the visitor signed out rather than stuck on 'Loading...'; a check that failed
 * because the browser is offline stays loading and runs again once the browser is back online.
 */
export function AuthProvider({ children, initialState }: { children: ReactNode; initialState?: AuthState }) {
  const [state, dispatch] = useReducer(authReducer, initialState ?? initialAuthState);
  const runsStartupCheck = initialState === undefined;
  // Set once the page itself signs in or out (login, /logout). The startup check may have been
  // answered by the server before that and arrive after it: a stale answer must not undo it (it
  // would show a signed-out browser as signed in, or the reverse).
  const changedSinceStartup = useRef(false);

  useEffect(() => {
    if (!runsStartupCheck) return;
    const abort = new AbortController();
    // A transition: the answer may arrive while a prerendered page is still hydrating (ADR 023),
    // and an urgent update would make React drop the server's HTML for a fallback, then draw it again.
    const answer = (action: Parameters<typeof dispatch>[0]) => {
      if (!changedSinceStartup.current) startTransition(() => dispatch(action));
    };
    const check = () =>
      fetchSession(abort.signal).then(
        (session) => answer(session ? { type: 'LOGIN', id: session.id, email: session.email } : { type: 'LOGOUT' }),
        (error: unknown) => {
          if (abort.signal.aborted) return;
          // Offline (the point of sale opens from its service worker's copy, ADR 085), the server could
          // not be asked: the session is not known yet, not ended. Ask again when the browser is back online.
          if (!navigator.onLine) {
            window.addEventListener('online', () => void check(), { once: true, signal: abort.signal });
            return;
          }
          console.error('Session check failed; continuing signed out', error);
          answer({ type: 'LOGOUT' });
        },
      );
    void check();
    return () => abort.abort();
  }, [runsStartupCheck]);

  useEffect(() => {
    if (!state.loading) rememberSignedIn(state.isAuthenticated);
  }, [state.loading, state.isAuthenticated]);

  // Stable callbacks, so effects that depend on them do not re-run on every session change. Each
  // first has the data layer forget the previous user's cached answers, before anything renders
  // for the new state.
  const signIn = useCallback((session: { id: string; email: string }) => {
    changedSinceStartup.current = true;
    notifySessionChange();
    dispatch({ type: 'LOGIN', id: session.id, email: session.email });
  }, []);
  const signOut = useCallback(() => {
    changedSinceStartup.current = true;
    notifySessionChange();
    dispatch({ type: 'LOGOUT' });
  }, []);
  const auth = useMemo<Auth>(() => ({ state, signIn, signOut }), [state, signIn, signOut]);
  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}
