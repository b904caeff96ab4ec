import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DateField, UNFINISHED_DATE } from './date-field.tsx';

/** A page that keeps only whole dates, as the activity page's filters do. */
function Filter({ seen }: { seen: string[] }) {
  const [value, setValue] = useState('');
  return (
    <>
      <DateField
        label="From"
        name="from"
        value={value}
        onChange={(date) => {
          seen.push(date);
          if (date !== UNFINISHED_DATE) setValue(date);
        }}
      />
      <button type="button" onClick={() => setValue('')}>
        Reset
      </button>
      <output>{value}</output>
    </>
  );
}

const hidden = () => document.querySelector<HTMLInputElement>('input[name="from"]')!;

describe('DateField', () => {
  it('takes a date typed DD/MM/YYYY, keeps it on screen while it is typed, and is cleared from outside', async () => {
    const user = userEvent.setup();
    const seen: string[] = [];
    render(<Filter seen={seen} />);
    await user.click(screen.getByRole('spinbutton', { name: 'Day' }));
    await user.keyboard('25');
    expect(hidden().value).toBe('25/MM/YYYY');
    await user.keyboard('11202');
    // A year still being typed (0202) is no date yet.
    expect(screen.getByRole('status').textContent).toBe('');
    await user.keyboard('6');
    expect(hidden().value).toBe('25/11/2026');
    expect(screen.getByRole('status').textContent).toBe('2026-11-25');
    expect(seen.filter((date) => date !== UNFINISHED_DATE)).toEqual(['2026-11-25']);
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(hidden().value).toBe('');
  });
});
