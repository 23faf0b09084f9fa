/**
 * Route guards. Protected routes show 'Loading...' until the session check answers, then send
 * visitors to /login (carrying a shared page, a merchant's plans or the contact form, so sign-in
 * can say why and return there). Visitor-only routes
 * (register, login, password reset) show their page at once, also while the check runs, because
 * that is what a visitor needs and what the prerendered page holds (ADR 023); a signed-in user is
 * sent on to the page that asked for sign-in, else /account, when the check answers.
 */
import { useState, useSyncExternalStore } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useAuth } from './AuthProvider.js';
import { loginPathFor, RETURN_PARAM, safeReturnPath } from './returnPath.js';

/** Whether the browser says it is online, kept current by its online and offline events. */
function useOnline(): boolean {
  return useSyncExternalStore(
    (changed) => {
      window.addEventListener('online', changed);
      window.addEventListener('offline', changed);
      return () => {
        window.removeEventListener('online', changed);
        window.removeEventListener('offline', changed);
      };
    },
    () => navigator.onLine,
    () => true,
  );
}

/**
 * `offlineShell`: the page works offline as a shell (the point of sale's keypad, ADR 085) and is
 * shown while the session check waits for the connection; its data still needs the session.
 */
export function RequireAuth({ offlineShell = false }: { offlineShell?: boolean }) {
  const { state } = useAuth();
  const location = useLocation();
  const online = useOnline();
  // Once shown offline, the shell stays while the check runs again online (no flash of 'Loading...',
  // nothing typed lost), and it is the same <Outlet /> as below when the check answers signed in.
  const [shellShown, setShellShown] = useState(false);
  if (offlineShell && state.loading && !online && !shellShown) setShellShown(true);
  if (offlineShell && state.loading && (shellShown || !online)) return <Outlet />;
  if (state.loading) return <LoadingStatus />;
  // A shared page rides along so sign-in can say why it is asked for and return there.
  if (!state.isAuthenticated) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  return <Outlet />;
}

export function VisitorOnly() {
  const { state } = useAuth();
  const [searchParams] = useSearchParams();
  // Signing in renders this guard before the login page's own navigation lands, so the guard
  // must send the user to the same place: the page that asked for sign-in, else /account.
  const destination = safeReturnPath(searchParams.get(RETURN_PARAM)) ?? '/account';
  if (!state.loading && state.isAuthenticated) return <Navigate to={destination} replace />;
  return <Outlet />;
}
