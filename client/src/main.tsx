import '@fontsource-variable/nunito/wght.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';

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

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
