import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, expect, it, vi } from 'vitest';
import { ADMIN_SESSION_KEY } from '@tc/domain/constants';
import { isoToDisplayDate } from '@tc/domain/dates';
import { centreAwayFromHere } from '../../test/centre-zone.ts';
import { AppProviders } from '../../app/app-providers.tsx';
import { deferred, mockFetch, type MockReply } from '../../test/render-app.tsx';
import { AssessmentDialog } from './assessment-dialog.tsx';
import { expectNotCancellableWhileSaving } from '../../test/dialogs.ts';

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

it('cannot be cancelled while its save runs: the assessment would be made all the same, unseen', async () => {
  window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
  const answer = deferred<MockReply>();
  const { calls } = mockFetch({
    'GET /api/admin/centre': () => ({ body: { timeZone: 'Asia/Kolkata' } }),
    'POST /api/assessments': () => answer.promise,
  });
  const onClose = vi.fn();
  const onSaved = vi.fn();
  const user = userEvent.setup({ delay: null });
  render(
    <MemoryRouter>
      <AppProviders>
        <AssessmentDialog editing={null} onClose={onClose} onSaved={onSaved} />
      </AppProviders>
    </MemoryRouter>,
  );
  await chooseIn(user, 'Grade', '5th');
  await chooseIn(user, 'Board', 'CBSE');
  await chooseIn(user, 'Subject', 'Mathematics');
  await user.type(screen.getByLabelText('Title'), 'Unit Test 1');
  await user.type(screen.getByLabelText('Maximum marks'), '20');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await expectNotCancellableWhileSaving(user, calls, 'POST', onClose);
  expect(screen.getByRole('dialog', { name: 'New assessment' })).toBeInTheDocument();
  answer.resolve({ status: 201, body: { objectId: 'a1', title: 'Unit Test 1' } });
  await waitFor(() => expect(onSaved).toHaveBeenCalled());
});

/** Picks `option` in the select labelled `label`. */
async function chooseIn(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}
