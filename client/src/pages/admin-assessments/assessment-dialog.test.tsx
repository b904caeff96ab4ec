import { render, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, expect, it, vi } from 'vitest';
import { ADMIN_SESSION_KEY } from '@tc/domain/constants';
import { isoToDisplayDate, todayIso } from '@tc/domain/dates';
import { zonedParts } from '@tc/domain/zoned-time';
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
  // A zone whose date is not this computer's now (UTC+14 is a day ahead of UTC from 10:00, UTC-12 behind before noon).
  const zone = ['Pacific/Kiritimati', 'Etc/GMT+12'].find((z) => zonedParts(new Date(), z).date !== todayIso())!;
  const centreToday = zonedParts(new Date(), zone).date;
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
