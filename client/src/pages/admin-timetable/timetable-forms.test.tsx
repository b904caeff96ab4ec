import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { TimetableMessage } from '@tc/domain/timetable-messages';
import { AppProviders } from '../../app/app-providers.tsx';
import { HolidaysCard } from './holidays-card.tsx';
import { SlotDialog } from './slot-dialog.tsx';

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

describe("the holiday's form", () => {
  it("takes the last day's message away when the first day changes, and keeps the others", async () => {
    const user = renderInApp(<HolidaysCard holidays={[]} onChanged={vi.fn()} onRetry={vi.fn()} />);
    const [fromDay, toDay] = screen.getAllByRole('spinbutton', { name: 'Day' });
    await user.click(fromDay!);
    await user.keyboard('10122026');
    await user.click(toDay!);
    await user.keyboard('05122026');
    await user.click(screen.getByRole('button', { name: 'Add holiday' }));
    await waitFor(() => expect(screen.getByText(TimetableMessage.holidayToBeforeFrom)).toBeInTheDocument());
    expect(screen.getByText(TimetableMessage.holidayTitleRequired)).toBeInTheDocument();

    await user.click(fromDay!);
    await user.keyboard('01122026');
    await waitFor(() => expect(screen.queryByText(TimetableMessage.holidayToBeforeFrom)).toBeNull());
    expect(screen.getByText(TimetableMessage.holidayTitleRequired)).toBeInTheDocument();
  });
});
