/**
 * Route guards. Protected routes show 'Loading...' until the session check answers, then send
 * visitors to /login. Visitor-only routes (register, login, password reset) show their page at
 * once, also while the check runs, because that is what a visitor needs and what the prerendered
 * page holds (ADR 023); a signed-in user is sent on to /account when the check answers.
 */
import { Navigate, Outlet } from 'react-router';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useAuth } from './AuthProvider.js';

export function RequireAuth() {
  const { state } = useAuth();
  if (state.loading) return <LoadingStatus />;
  if (!state.isAuthenticated) return <Navigate to="/login" replace />;
  return <Outlet />;
}

export function VisitorOnly() {
  const { state } = useAuth();
  if (!state.loading && state.isAuthenticated) return <Navigate to="/account" replace />;
  return <Outlet />;
}
