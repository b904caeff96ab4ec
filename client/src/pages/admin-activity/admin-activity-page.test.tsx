import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ADMIN_SESSION_KEY } from '@tc/domain/constants';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { ErrorCode } from '@tc/domain/errors';
import { Route } from '@tc/domain/routes';
import { deferred, mockFetch, renderApp, type MockHandler, type MockReply } from '../../test/render-app.tsx';

// The Activity page: its pages' count and the focus after "Try again".

const entry = (i: number) => ({
  objectId: `e${i}`,
  at: new Date(Date.UTC(2026, 10, 20) - i * 60_000).toISOString(),
  adminId: 'me',
  adminEmail: 'asha@example.com',
  kind: 'student.update',
  targetClass: '_User',
  targetId: `s${i}`,
  enrollmentId: i,
  changes: [],
  state: 'applied',
});

function serve(activity: MockHandler) {
  return mockFetch({
    'GET /api/admin/me': () => ({ body: { name: 'Asha', email: 'asha@example.com' } }),
    'GET /api/admin/centre': () => ({ body: { timeZone: 'Asia/Kolkata' } }),
    'GET /api/activity/admins': () => ({ body: [{ objectId: 'me', email: 'asha@example.com', current: true }] }),
    'GET /api/activity': activity,
  });
}

function openActivity(path: string = Route.adminActivity) {
  window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
  return renderApp(path);
}

describe('the Activity page', () => {
  it("shows the count of the filters on screen, not the last filter's, while theirs has not come or did not", async () => {
    const filtered = deferred<MockReply>();
    serve((_body, url) =>
      url.searchParams.get('kind')
        ? filtered.promise
        : { body: [entry(1), entry(2)], headers: { 'X-Total-Count': '812' } },
    );
    const { user } = openActivity();
    expect(await screen.findByText(/^1–25 of 812$/, {}, { timeout: 15000 })).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Kind' }));
    await user.click(await screen.findByRole('option', { name: 'Password changed' }));
    expect(await screen.findByText('Loading ...')).toBeInTheDocument();
    expect(screen.queryByText(/of 812/)).not.toBeInTheDocument();
    filtered.resolve({ status: 503, body: { code: ErrorCode.Internal, error: 'Try again' } });
    expect(
      await screen.findByText(AdminToolsMessage.activityNotLoaded, { selector: '[role="status"]' }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/of 812/)).not.toBeInTheDocument();
  });

  it('gives the focus to the entries once "Try again" has brought them', async () => {
    let answers = 0;
    serve(() =>
      ++answers === 1
        ? { status: 503, body: { code: ErrorCode.Internal, error: 'Try again' } }
        : { body: [entry(1)], headers: { 'X-Total-Count': '1' } },
    );
    const { user } = openActivity();
    await user.click(await screen.findByRole('button', { name: 'Try again' }, { timeout: 15000 }));
    expect(await screen.findByText(/^1–1 of 1$/)).toBeInTheDocument();
    // Not the page's start: the list that came in the status's place.
    const entries = screen.getByText('Student edited').closest('ol');
    await waitFor(() => expect(entries?.parentElement).toHaveFocus());
  });
});
