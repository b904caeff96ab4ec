import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { useViewInAddress } from './use-view-in-address.ts';

/** A page with a view in its address and buttons that change it. */
function Page() {
  const [params, change] = useViewInAddress();
  return (
    <>
      <output>{params.toString()}</output>
      <button type="button" onClick={() => change({ kind: 'login' })}>
        Kind
      </button>
      {/* Two changes before the page renders again, as on a busy page. */}
      <button
        type="button"
        onClick={() => {
          change({ from: '2026-11-26' });
          change({ kind: 'login', page: '' });
        }}
      >
        Both
      </button>
      <button type="button" onClick={() => change({ kind: '' })}>
        All kinds
      </button>
      <button type="button" onClick={() => change({ to: '2026-11-30' })}>
        To
      </button>
      <Link to="/activity?admin=a1">Elsewhere</Link>
      <Link to="/activity">Activity</Link>
    </>
  );
}

function renderPage(address: string) {
  const router = createMemoryRouter([{ path: '/activity', element: <Page /> }], { initialEntries: [address] });
  render(<RouterProvider router={router} />);
  return { router, user: userEvent.setup({ delay: null }) };
}

const shown = () => screen.getByRole('status').textContent;

describe('useViewInAddress', () => {
  it('keeps both of two changes made before the page renders again', async () => {
    const { user, router } = renderPage('/activity?page=3');
    await user.click(screen.getByRole('button', { name: 'Both' }));
    expect(shown()).toBe('from=2026-11-26&kind=login');
    expect(router.state.location.search).toBe('?from=2026-11-26&kind=login');
  });

  it('changes the address in place and removes a key changed to nothing', async () => {
    const { user, router } = renderPage('/activity?to=2026-11-30');
    await user.click(screen.getByRole('button', { name: 'Kind' }));
    expect(shown()).toBe('to=2026-11-30&kind=login');
    expect(router.state.historyAction).toBe('REPLACE');
    await user.click(screen.getByRole('button', { name: 'All kinds' }));
    expect(shown()).toBe('to=2026-11-30');
  });

  it('starts from the address a link gave, even one it wrote before', async () => {
    const { user } = renderPage('/activity');
    await user.click(screen.getByRole('button', { name: 'Kind' }));
    expect(shown()).toBe('kind=login');
    // The page's own link, as in the admin's navigation: the filters go.
    await user.click(screen.getByRole('link', { name: 'Activity' }));
    expect(shown()).toBe('');
    await user.click(screen.getByRole('button', { name: 'To' }));
    expect(shown()).toBe('to=2026-11-30');
  });

  it('starts from the address Back gave, even one it wrote', async () => {
    const { user, router } = renderPage('/activity');
    await user.click(screen.getByRole('button', { name: 'Kind' }));
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await user.click(screen.getByRole('button', { name: 'Both' }));
    expect(shown()).toBe('admin=a1&from=2026-11-26&kind=login');
    // Back to the entry the first filter wrote.
    await act(() => router.navigate(-1));
    expect(shown()).toBe('kind=login');
    await user.click(screen.getByRole('button', { name: 'To' }));
    expect(shown()).toBe('kind=login&to=2026-11-30');
  });

  it('starts from the address as it is after it moved on its own', async () => {
    const { user } = renderPage('/activity?kind=login&from=2026-11-26');
    await user.click(screen.getByRole('button', { name: 'Both' }));
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(shown()).toBe('admin=a1');
    await user.click(screen.getByRole('button', { name: 'Kind' }));
    expect(shown()).toBe('admin=a1&kind=login');
  });
});
