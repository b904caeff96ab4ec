import { render, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, expect, it, vi } from 'vitest';
import { ADMIN_SESSION_KEY } from '@tc/domain/constants';
import { isoToDisplayDate } from '@tc/domain/dates';
import { centreAwayFromHere } from '../../test/centre-zone.ts';
import { AppProviders } from '../../app/app-providers.tsx';
import { mockFetch } from '../../test/render-app.tsx';
import { AssessmentDialog } from './assessment-dialog.tsx';

// A new assessment is dated today at the centre (CENTRE_TIMEZONE, told by GET
// /api/admin/centre), not on this computer, whose date may be another.

afterEach(() => {
  vi.restoreAllMocks();
  window.localStorage.clear();
});

it("dates a new assessment today at the centre, where this computer's date is another", async () => {
  const { zone, centreToday } = centreAwayFromHere();
  window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
  mockFetch({ 'GET /api/admin/centre': () => ({ body: { timeZone: zone } }) });
  render(
    <MemoryRouter>
      <AppProviders>
        <AssessmentDialog editing={null} onClose={vi.fn()} onSaved={vi.fn()} />
      </AppProviders>
    </MemoryRouter>,
  );
  const date = () => document.querySelector<HTMLInputElement>('input[name="date"]')!.value;
  await waitFor(() => expect(date()).toBe(isoToDisplayDate(centreToday)));
});
