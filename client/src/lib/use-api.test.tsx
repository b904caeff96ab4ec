import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { ADMIN_SESSION_KEY } from '@tc/domain/constants';
import { ErrorCode } from '@tc/domain/errors';
import { UiMessage } from '@tc/domain/messages';
import { ServerMessage } from '@tc/domain/server-messages';
import { Route } from '@tc/domain/routes';
import { currentPath, mockFetch, renderApp, type MockHandler } from '../test/render-app.tsx';

// How a page learns that its session has ended (lib/use-api.ts), on the admins page:
// its calls refuse for reasons of their own (403 "cannot remove yourself") as well as
// for the session's.

const admins = [
  { objectId: 'me', email: 'asha@example.com', name: 'Asha', self: true },
  { objectId: 'other', email: 'ravi@example.com', name: 'Ravi', self: false },
];

function serve(handlers: Record<string, MockHandler>) {
  return mockFetch({
    'GET /api/admin/me': () => ({ body: { name: 'Asha', email: 'asha@example.com' } }),
    'GET /api/admins': () => ({ body: admins }),
    ...handlers,
  });
}

async function openAdmins() {
  window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
  const view = renderApp(Route.adminAdmins);
  expect(await screen.findByText('ravi@example.com', {}, { timeout: 15000 })).toBeInTheDocument();
  return view;
}

/** The server's refusal of one removal: a 403 that is not about the session. */
const refuseLastAdmin = () => ({
  status: 403,
  body: { code: ErrorCode.Forbidden, error: AdminToolsMessage.cannotRemoveLast },
});

/** Remove is refused with its own message, and the admin stays, signed in. */
async function removeRaviAndStay(user: ReturnType<typeof renderApp>['user']) {
  await user.click(screen.getByRole('button', { name: 'Remove ravi@example.com' }));
  const asked = await screen.findByRole('dialog', { name: 'Remove these administrator rights?' });
  await user.click(within(asked).getByRole('button', { name: 'Remove' }));
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(AdminToolsMessage.cannotRemoveLast));
  expect(currentPath()).toBe(Route.adminAdmins);
  expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBe('r:admin');
}

async function changePassword(user: ReturnType<typeof renderApp>['user']) {
  await user.type(screen.getByLabelText('Current Password'), 'Old-password1');
  await user.type(screen.getByLabelText('New Password'), 'New-password1');
  await user.type(screen.getByLabelText('Confirm New Password'), 'New-password1');
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a session that ends, and a request that is refused', () => {
  it("shows a request's own 403 and keeps the session (the session still reads its profile)", async () => {
    const { calls } = serve({
      'DELETE /api/admins/other': refuseLastAdmin,
    });
    const { user } = await openAdmins();
    await removeRaviAndStay(user);
    // The session was asked whether it is still an admin's.
    expect(calls.filter((c) => c.path === '/api/admin/me').length).toBeGreaterThanOrEqual(1);
  });

  it("ends a session of the other role with the server's reason", async () => {
    serve({
      'GET /api/admins': () => ({ status: 403, body: { code: ErrorCode.Forbidden, error: ServerMessage.adminOnly } }),
      'GET /api/admin/me': () => ({ status: 403, body: { code: ErrorCode.Forbidden, error: ServerMessage.adminOnly } }),
    });
    window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:student');
    renderApp(Route.adminAdmins);
    await waitFor(() => expect(currentPath()).toBe(Route.adminLogin), { timeout: 15000 });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(ServerMessage.adminOnly));
    expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBeNull();
  });

  it('ends an expired session with "Session expired"', async () => {
    serve({
      'PUT /api/admin/password': () => ({
        status: 401,
        body: { code: ErrorCode.InvalidSession, error: 'Invalid session token' },
      }),
    });
    const { user } = await openAdmins();
    await changePassword(user);
    await waitFor(() => expect(currentPath()).toBe(Route.adminLogin));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.sessionExpired));
    expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBeNull();
  });

  it('keeps the session on a 401 about a password typed on the page', async () => {
    serve({
      'PUT /api/admin/password': () => ({
        status: 401,
        body: { code: ErrorCode.AccountLocked, error: 'Too many attempts. Try again in 15 minutes.' },
      }),
    });
    const { user } = await openAdmins();
    await changePassword(user);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Too many attempts'));
    expect(currentPath()).toBe(Route.adminAdmins);
    expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBe('r:admin');
  });

  it('ends the session on a 401 that names no code', async () => {
    serve({ 'GET /api/admins': () => ({ status: 401 }) });
    window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
    renderApp(Route.adminAdmins);
    await waitFor(() => expect(currentPath()).toBe(Route.adminLogin), { timeout: 15000 });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.sessionExpired));
  });

  it("keeps the session when a 403's check cannot reach the server, and shows the page's message", async () => {
    serve({
      'DELETE /api/admins/other': refuseLastAdmin,
      // The profile check fails as the server does when its database is away.
      'GET /api/admin/me': () => ({ status: 503, body: { code: ErrorCode.Unavailable, error: 'Try again' } }),
    });
    const { user } = await openAdmins();
    await removeRaviAndStay(user);
  });

  it('follows a logout in another tab to the login, without a word', async () => {
    serve({});
    await openAdmins();
    // What another tab's logout does to this one: the shared storage changes under it.
    act(() => {
      window.localStorage.removeItem(ADMIN_SESSION_KEY);
      window.dispatchEvent(new StorageEvent('storage', { key: ADMIN_SESSION_KEY, storageArea: localStorage }));
    });
    await waitFor(() => expect(currentPath()).toBe(Route.adminLogin));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
