import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from './app-providers.tsx';
import { AppRoutes } from './app-routes.tsx';

// A data router, so that a screen with unsaved work can hold a navigation
// (useBlocker); the routes themselves stay declared in AppRoutes.
function makeRouter() {
  return createBrowserRouter([
    {
      path: '*',
      element: (
        <AppProviders>
          <AppRoutes />
        </AppProviders>
      ),
    },
  ]);
}

export function App() {
  const [router] = useState(makeRouter);
  return <RouterProvider router={router} />;
}
