import '@fontsource-variable/nunito/wght.css';
import './styles/site.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { preloadScreen } from './app/app-routes.tsx';

// After a new release the old page chunks are gone: load the new release once
// (product pages are lazy-loaded), instead of failing to open a page.
window.addEventListener('vite:preloadError', (event) => {
  const key = 'reloadedForNewRelease';
  if (sessionStorage.getItem(key)) return;
  sessionStorage.setItem(key, '1');
  event.preventDefault();
  window.location.reload();
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

preloadScreen(window.location.pathname);
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// The public pages arrive pre-rendered (scripts/prerender.ts): React takes over
// their HTML instead of drawing it again, once the browser has painted it.
// Other routes start from an empty root.
if (root.hasChildNodes()) requestAnimationFrame(() => setTimeout(() => hydrateRoot(root, app)));
else createRoot(root).render(app);
