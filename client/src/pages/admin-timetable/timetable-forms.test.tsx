import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { ADMIN_SESSION_KEY } from '@tc/domain/constants';
import { isoToDisplayDate, todayIso } from '@tc/domain/dates';
import { TimetableMessage } from '@tc/domain/timetable-messages';
import { mockFetch } from '../../test/render-app.tsx';
import { centreAwayFromHere } from '../../test/centre-zone.ts';
import { AppProviders } from '../../app/app-providers.tsx';
import { useCentreZone } from '../../lib/centre-zone.ts';
import { HolidaysCard } from './holidays-card.tsx';
import { SlotDialog, type SlotRecord } from './slot-dialog.tsx';
import { expectNotCancellableWhileSaving } from '../../test/dialogs.ts';

// The timetable's forms show every problem at once, and a field's message goes as the
// field changes. A rule across two fields sits under one of them: it goes too when the
// other field, the one it also reads, changes.

function renderInApp(ui: React.ReactNode) {
  const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
  render(
    <MemoryRouter>
      <AppProviders>{ui}</AppProviders>
    </MemoryRouter>,
  );
  return user;
}

const helperOf = (label: string) => {
  const field = screen.getByLabelText(label);
  const id = field.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? '') : '';
};

describe("the class's dialog", () => {
  it("takes the end's message away when the start changes, and keeps the others", async () => {
    const user = renderInApp(<SlotDialog grade={5} board="CBSE" onClose={vi.fn()} onSaved={vi.fn()} />);
    fireEvent.change(screen.getByLabelText('Start time'), { target: { value: '23:30' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helperOf('Duration (minutes)')).toBe(TimetableMessage.endsAfterMidnight));
    expect(helperOf('Teacher')).toBe(TimetableMessage.teacherRequired);

    fireEvent.change(screen.getByLabelText('Start time'), { target: { value: '22:00' } });
    await waitFor(() => expect(helperOf('Duration (minutes)')).toBe(''));
    expect(screen.getByLabelText('Duration (minutes)')).not.toHaveAttribute('aria-invalid', 'true');
    expect(helperOf('Teacher')).toBe(TimetableMessage.teacherRequired);
  });
});

describe("the class's dialog while it saves", () => {
  it('cannot be cancelled: the change would be made all the same, unseen', async () => {
    window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
    const slot = {
      objectId: 's1',
      grade: 5,
      board: 'CBSE',
      subject: 'Mathematics',
      weekday: 1,
      start: '16:00',
      duration: 60,
      end: '17:00',
      teacher: 'Mrs Rao',
      link: '',
    } as unknown as SlotRecord;
    let answer!: (reply: { body: object }) => void;
    const { calls } = mockFetch({
      'PUT /api/timetable/slots/s1': () => new Promise((resolve) => (answer = resolve)),
    });
    const onClose = vi.fn();
    const onSaved = vi.fn();
    const user = renderInApp(<SlotDialog slot={slot} grade={5} board="CBSE" onClose={onClose} onSaved={onSaved} />);
    await user.clear(screen.getByLabelText('Teacher'));
    await user.type(screen.getByLabelText('Teacher'), 'Mr Iyer');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await expectNotCancellableWhileSaving(user, calls, 'PUT', onClose);
    answer({ body: { ...slot, teacher: 'Mr Iyer' } });
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
  });
});

/** The centre's zone as a page has it. */
function ZoneShown() {
  return <output>zone {useCentreZone()}</output>;
}

describe("the holiday's form", () => {
  it("takes the last day's message away when the first day changes, and keeps the others", async () => {
    const user = renderInApp(<HolidaysCard holidays={[]} onChanged={vi.fn()} onRetry={vi.fn()} />);
    const [fromDay, toDay] = screen.getAllByRole('spinbutton', { name: 'Day' });
    // A field's day section takes the keys once it has the focus (under a busy run the click's
    // focus can come after the first keys, which then land elsewhere).
    const typeInto = async (day: HTMLElement, digits: string) => {
      await user.click(day);
      await waitFor(() => expect(day).toHaveFocus());
      await user.keyboard(digits);
    };
    await typeInto(fromDay!, '10122026');
    await typeInto(toDay!, '05122026');
    await user.click(screen.getByRole('button', { name: 'Add holiday' }));
    await waitFor(() => expect(screen.getByText(TimetableMessage.holidayToBeforeFrom)).toBeInTheDocument());
    expect(screen.getByText(TimetableMessage.holidayTitleRequired)).toBeInTheDocument();
    // The form hands the focus to its first problem (a frame later): the click comes after.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add holiday' })).not.toHaveFocus());

    await typeInto(fromDay!, '01122026');
    await waitFor(() => expect(screen.queryByText(TimetableMessage.holidayToBeforeFrom)).toBeNull());
    expect(screen.getByText(TimetableMessage.holidayTitleRequired)).toBeInTheDocument();
  });

  it('asks before it adds a holiday that is over, and adds one to come without asking', async () => {
    window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
    const { calls } = mockFetch({
      'POST /api/timetable/holidays': (body) => ({ status: 201, body: { objectId: 'h1', ...(body as object) } }),
    });
    const onChanged = vi.fn();
    const user = renderInApp(<HolidaysCard holidays={[]} onChanged={onChanged} onRetry={vi.fn()} />);
    const [fromDay] = screen.getAllByRole('spinbutton', { name: 'Day' });
    const added = () => calls.filter((call) => call.method === 'POST');

    // Last year's Diwali, the year typed wrong.
    await user.type(screen.getByLabelText('Title'), 'Diwali');
    await user.click(fromDay!);
    await user.keyboard('08112025');
    await user.click(screen.getByRole('button', { name: 'Add holiday' }));
    const asked = await screen.findByRole('dialog', { name: TimetableMessage.holidayPastTitle });
    expect(asked).toHaveTextContent(TimetableMessage.holidayPast('Diwali', '08/11/2025'));
    await user.click(within(asked).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(added()).toHaveLength(0);

    // Added as it is when the admin says so.
    await user.click(screen.getByRole('button', { name: 'Add holiday' }));
    const again = await screen.findByRole('dialog', { name: TimetableMessage.holidayPastTitle });
    await user.click(within(again).getByRole('button', { name: 'Add holiday' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    expect(added().map((call) => call.body)).toEqual([{ title: 'Diwali', from: '2025-11-08', to: '2025-11-08' }]);
    // Gone before the next add: while it fades out, its own Add holiday is the only one a
    // screen reader (and getByRole) finds, and it answers no click then.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // One to come: no question.
    await user.type(screen.getByLabelText('Title'), 'New Year');
    await user.click(fromDay!);
    await user.keyboard(`0101${new Date().getFullYear() + 1}`);
    await user.click(screen.getByRole('button', { name: 'Add holiday' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("takes a holiday as over or not by the centre's date, not by this computer's", async () => {
    const { zone, centreToday, centreAhead } = centreAwayFromHere();
    window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
    mockFetch({
      'GET /api/admin/centre': () => ({ body: { timeZone: zone } }),
      'POST /api/timetable/holidays': (body) => ({ status: 201, body: { objectId: 'h1', ...(body as object) } }),
    });
    const onChanged = vi.fn();
    const user = renderInApp(
      <>
        <HolidaysCard holidays={[]} onChanged={onChanged} onRetry={vi.fn()} />
        <ZoneShown />
      </>,
    );
    // The card has the centre's zone once a later reader of it has.
    expect(await screen.findByText(`zone ${zone}`)).toBeInTheDocument();
    // Today here, which is yesterday at a centre ahead; or today at a centre behind, which is yesterday here.
    const day = centreAhead ? todayIso() : centreToday;
    await user.type(screen.getByLabelText('Title'), 'Founders day');
    await user.click(screen.getAllByRole('spinbutton', { name: 'Day' })[0]!);
    await user.keyboard(isoToDisplayDate(day).replaceAll('/', ''));
    await user.click(screen.getByRole('button', { name: 'Add holiday' }));
    if (centreAhead) {
      expect(await screen.findByRole('dialog', { name: TimetableMessage.holidayPastTitle })).toBeInTheDocument();
    } else {
      await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
      expect(screen.queryByRole('dialog')).toBeNull();
    }
  });
});
