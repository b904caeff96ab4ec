import { render, screen, within } from '@testing-library/react';
import { StaticDatePicker } from '@mui/x-date-pickers/StaticDatePicker';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { DateLocalization } from './date-localization.tsx';

describe('DateLocalization', () => {
  it("gives a calendar the site's day-month order and a week from Monday", () => {
    render(
      <DateLocalization>
        <StaticDatePicker value={dayjs('2016-06-15')} />
      </DateLocalization>,
    );
    // The heading of the calendar a phone opens: not "Wed, Jun 15".
    expect(screen.getByText('Wed, 15 Jun')).toBeTruthy();
    const weekdays = within(screen.getByRole('grid')).getAllByRole('columnheader');
    expect(weekdays.map((day) => day.getAttribute('aria-label'))).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]);
  });
});
