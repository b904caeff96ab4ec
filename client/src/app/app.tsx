import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './app-providers.tsx';
import { AppRoutes } from './app-routes.tsx';

export function App() {
  return (
    <BrowserRouter>
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
