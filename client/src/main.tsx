import '@fontsource-variable/nunito/wght.css';
import './styles/site.css';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { preloadScreen } from './app/app-routes.tsx';
import { unsavedWork } from './lib/unsaved-work.ts';

// After a new release the old page chunks are gone: load the new release once
// (product pages are lazy-loaded), instead of failing to open a page. Not over work not
// saved yet (a form half filled, changed marks): the reload would lose it, and the code
// that failed to load has a way of its own (the leave prompt falls back to the browser's).
window.addEventListener('vite:preloadError', (event) => {
  const key = 'reloadedForNewRelease';
  if (sessionStorage.getItem(key) || unsavedWork.any()) return;
  sessionStorage.setItem(key, '1');
  event.preventDefault();
  window.location.reload();
});

const screenCode = preloadScreen(window.location.pathname);
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

function start() {
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element');
  // The public pages arrive pre-rendered (scripts/prerender.ts): React takes over
  // their HTML in one pass once the browser has painted it and the page's code is
  // loaded. Other routes start from an empty root.
  const painted = new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  if (root.hasChildNodes()) {
    // A chunk that failed to load is retried while rendering, where the error is shown.
    void Promise.all([screenCode.catch(() => undefined), painted]).then(() =>
      startTransition(() => void hydrateRoot(root, app)),
    );
  } else createRoot(root).render(app);
}

// The script is async (scripts/prerender.ts): from the browser's cache it can run
// before the page's body has been read. The screen's code loads meanwhile.
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
