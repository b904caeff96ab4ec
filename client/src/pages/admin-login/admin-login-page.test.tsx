import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ADMIN_SESSION_KEY } from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import { currentPath, deferred, mockFetch, renderApp, type MockReply } from '../../test/render-app.tsx';

describe('admin login', () => {
  it('sends e-mail and password as typed (no client validation) and opens the dashboard', async () => {
    const { calls } = mockFetch({
      'POST /api/admin/login': () => ({ body: { success: true, token: 'r:admin' } }),
      'GET /api/admin/me': () => deferred<MockReply>().promise,
      'GET /api/users': () => deferred<MockReply>().promise,
    });
    const { user } = renderApp('/adminlogin');
    expect(await screen.findByRole('heading', { name: 'Manage Student Records' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'Admin-pass1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(
      await screen.findByRole('heading', { name: 'All Registered Students - Enrollment Data' }, { timeout: 15000 }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/admindashborad');
    expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBe('r:admin');
    expect(calls[0]!.body).toEqual({ email: 'admin@example.com', password: 'Admin-pass1' });
  });

  it.each([
    [{ status: 401, body: { success: false, error: 'Invalid email or password' } }, 'Invalid email or password'],
    [{ status: 500 }, UiMessage.loginFailed],
  ])('shows the server error, else "Login failed" (%j)', async (reply, message) => {
    const { calls } = mockFetch({ 'POST /api/admin/login': () => reply });
    const { user } = renderApp('/adminlogin');
    await user.click(await screen.findByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
    expect(calls[0]!.body).toEqual({ email: '', password: '' });
    expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBeNull();
  });

  it("sends an empty password too, and shows the server's words for it under the field", async () => {
    const { calls } = mockFetch({
      'POST /api/admin/login': () => ({
        status: 401,
        body: { success: false, error: 'Password is required', field: 'password' },
      }),
    });
    const { user } = renderApp('/adminlogin');
    await user.type(await screen.findByLabelText('Email'), 'admin@example.com');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Password is required'));
    expect(calls[0]!.body).toEqual({ email: 'admin@example.com', password: '' });
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required');
  });

  it('redirects to the dashboard when an admin token exists', async () => {
    window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
    mockFetch({
      'GET /api/admin/me': () => deferred<MockReply>().promise,
      'GET /api/users': () => deferred<MockReply>().promise,
    });
    renderApp('/adminlogin');
    expect(await screen.findByText('Loading user details...', {}, { timeout: 15000 })).toBeInTheDocument();
    expect(currentPath()).toBe('/admindashborad');
  });
});
