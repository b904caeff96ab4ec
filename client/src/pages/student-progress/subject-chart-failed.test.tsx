import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, renderApp } from '../../test/render-app.tsx';
import { progress } from '../../test/progress.ts';
import { signIn } from '../../test/student.ts';

// The charts' code could not be fetched (a phone's network dropped after the page's own).
vi.mock('./subject-chart-code.ts', () => ({
  loadSubjectChart: () => Promise.reject(new Error('Failed to fetch dynamically imported module')),
}));

describe('the progress page without its charts', () => {
  it("shows each subject's results as a table for everyone", async () => {
    signIn();
    mockFetch({
      'GET /api/students/me/progress': () => ({
        body: progress,
      }),
    });
    renderApp('/dashboard/progress');
    const subject = await screen.findByRole('region', { name: 'Mathematics' });
    const table = await within(subject).findByRole('table');
    expect(table).toHaveTextContent('20/11/2026Unit Test 390%');
    expect(table).toBeVisible();
    expect(getComputedStyle(table).position).not.toBe('absolute');
    expect(subject.querySelector('svg')).toBeNull();
    expect(screen.getByText('18 / 20 (90%)')).toBeInTheDocument();
  });
});
