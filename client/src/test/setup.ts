import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// Screens load their code lazily; under a busy test run that can take a while.
configure({ asyncUtilTimeout: 30000 });

// jsdom has no matchMedia: answer "reduce" for prefers-reduced-motion (so
// toasts and canvases do not animate, as jsdom never fires animation events)
// and "no" for every other query.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: query.includes('prefers-reduced-motion: reduce'),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }),
});

// jsdom does not lay out or scroll: scrolling into view does nothing there.
Element.prototype.scrollIntoView = () => {};

// jsdom does not draw: the decorative canvas simply gets no context.
HTMLCanvasElement.prototype.getContext = () => null;

// A component test fails when anything logs an error (React's warnings about
// keys, act(), nesting or hydration among them): they are bugs, not noise.
let consoleErrors: string[] = [];
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args.map(String).join(' '));
  });
});

afterEach(() => {
  cleanup();
  const errors = consoleErrors;
  consoleErrors = [];
  vi.restoreAllMocks();
  window.sessionStorage.clear();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  if (errors.length > 0) throw new Error(`console.error during the test:\n${errors.join('\n')}`);
});
