import { BrowserRouter, useRoutes } from 'react-router';
import { AuthProvider } from '../features/auth/AuthProvider.js';
import { appRoutes } from './routes.js';

/** Every route; the router around it is the browser's here and a static one when prerendering. */
export function AppRoutes() {
  return useRoutes(appRoutes);
}

export function App() {
  return (
    <AuthProvider>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AuthProvider>
  );
}
