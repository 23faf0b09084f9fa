/**
 * The spec's auth state: loading (initially true) until the startup session check answers, then
 * LOGIN (with id and e-mail) or LOGOUT.
 */
export interface AuthState {
  loading: boolean;
  isAuthenticated: boolean;
  id: string | null;
  email: string | null;
}

export type AuthAction = { type: 'LOGIN'; id: string; email: string } | { type: 'LOGOUT' };

export const initialAuthState: AuthState = { loading: true, isAuthenticated: false, id: null, email: null };

export function authReducer(state: AuthState, action: AuthAction): AuthState {
  switch (action.type) {
    case 'LOGIN':
      return { loading: false, isAuthenticated: true, id: action.id, email: action.email };
    case 'LOGOUT':
      // Several failing calls may each report the expired session: the same state renders nothing new.
      if (!state.loading && !state.isAuthenticated) return state;
      return { loading: false, isAuthenticated: false, id: null, email: null };
    default: {
      const unknownAction: never = action;
      throw new Error(`Unknown auth action ${JSON.stringify(unknownAction)}`);
    }
  }
}
