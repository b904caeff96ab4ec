import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProviders } from '../app/app-providers.tsx';
import { AppRoutes } from '../app/app-routes.tsx';

function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" data-search={location.search}>
      {location.pathname}
    </output>
  );
}

/** Renders the whole app (providers, routes, toasts) at `path`. */
export function renderApp(path: string) {
  const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders>
        <AppRoutes />
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
  return { user, ...view };
}

export const currentPath = () => screen.getByTestId('location').textContent;
/** The address's query string, `?…` or ''. */
export const currentSearch = () => screen.getByTestId('location').dataset.search;

export interface MockReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type MockHandler = (body: unknown, url: URL, init: RequestInit) => MockReply | Promise<MockReply>;

export interface FetchCall {
  method: string;
  path: string;
  url: URL;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Replaces fetch with handlers keyed by "METHOD /path". An unexpected call
 * fails the test loudly. Returns the list of calls made.
 */
export function mockFetch(handlers: Record<string, MockHandler>) {
  const calls: FetchCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path: url.pathname, url, body, headers: (init.headers ?? {}) as Record<string, string> });
    const key = `${method} ${url.pathname}`;
    const handler = handlers[key];
    if (!handler) throw new Error(`Unexpected fetch: ${key}`);
    // As a real fetch: an aborted signal (a call's time limit) fails it, however long the reply takes.
    const { signal } = init;
    const reply = await (signal
      ? Promise.race([
          handler(body, url, init),
          new Promise<never>((_, reject) => {
            if (signal.aborted) reject(signal.reason as Error);
            signal.addEventListener('abort', () => reject(signal.reason as Error));
          }),
        ])
      : handler(body, url, init));
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** A promise and the function that settles it, to hold a request open. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
