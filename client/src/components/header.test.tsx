import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ADMIN_SESSION_KEY } from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import { mockFetch, renderApp } from '../test/render-app.tsx';
import { signIn } from '../test/student.ts';

describe('header', () => {
  it("learns the admin's name for the account menu", async () => {
    window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
    mockFetch({ 'GET /api/admin/me': () => ({ body: { name: 'Asha Admin', email: 'asha@example.com' } }) });
    renderApp('/home');
    expect(await screen.findByText('Asha Admin', { selector: 'strong' })).toBeInTheDocument();
    expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBe('r:admin');
  });

  it('forgets a session the server has ended: the header no longer shows anyone signed in', async () => {
    window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:expired');
    mockFetch({ 'GET /api/admin/me': () => ({ status: 401, body: { error: 'Invalid session token', code: 209 } }) });
    renderApp('/home');
    await waitFor(() => expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBeNull());
    expect(screen.queryByText('Signed in')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.sessionExpired));
  });

  it("keeps the student's session when the profile fails otherwise", async () => {
    signIn();
    const { calls } = mockFetch({ 'GET /api/students/me': () => ({ status: 500 }) });
    renderApp('/home');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/students/me')).toBe(true));
    expect(await screen.findByText('Signed in')).toBeInTheDocument();
  });
});
