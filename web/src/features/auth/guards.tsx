/**
 * Route guards. Protected routes show 'Loading...' until the session check answers, then send
 * visitors to /login; visitor-only routes (register, login, password reset) send signed-in users
 * to /account.
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
  if (state.loading) return <LoadingStatus />;
  if (state.isAuthenticated) return <Navigate to="/account" replace />;
  return <Outlet />;
}
