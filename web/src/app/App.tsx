import { BrowserRouter, useRoutes } from 'react-router';
import { AuthProvider } from '../features/auth/AuthProvider.js';
import { appRoutes } from './routes.js';

function AppRoutes() {
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
