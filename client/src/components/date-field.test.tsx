import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DateField, UNFINISHED_DATE } from './date-field.tsx';

/**
 * A page that keeps only whole dates, as the activity page's filters do. `lag`: each change
 * reaches the page that many milliseconds late, as a value kept in the URL can on a busy machine.
 */
function Filter({ seen, initial = '', lag }: { seen: string[]; initial?: string; lag?: number }) {
  const [value, setValue] = useState(initial);
  const [landed, setLanded] = useState(0);
  return (
    <>
      <DateField
        label="From"
        name="from"
        value={value}
        onChange={(date) => {
          seen.push(date);
          if (date === UNFINISHED_DATE) return;
          if (lag === undefined) setValue(date);
          else
            setTimeout(() => {
              setValue(date);
              setLanded((n) => n + 1);
            }, lag);
        }}
      />
      <button type="button" onClick={() => setValue('')}>
        Reset
      </button>
      <output>{value}</output>
      <p>{landed} late changes landed</p>
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

  it('keeps what is typed over a date while the page catches up, several changes late', async () => {
    const user = userEvent.setup();
    const seen: string[] = [];
    render(<Filter seen={seen} initial="2026-11-30" lag={300} />);
    expect(hidden().value).toBe('30/11/2026');
    await user.click(screen.getByRole('spinbutton', { name: 'Day' }));
    await user.keyboard('{Control>}a{/Control}');
    for (const key of '26112026') await user.keyboard(key);
    expect(hidden().value).toBe('26/11/2026');
    // Each day and month typed was a date the page takes, on its way to the one typed last.
    expect(seen.filter((date) => date !== UNFINISHED_DATE)).toEqual([
      '2026-11-02',
      '2026-11-26',
      '2026-01-26',
      '2026-11-26',
      '2026-11-26',
    ]);
    for (const reached of ['2026-11-02', '2026-01-26']) {
      await screen.findByText(reached);
      expect(hidden().value).toBe('26/11/2026');
    }
    await screen.findByText('5 late changes landed');
    expect(screen.getByRole('status').textContent).toBe('2026-11-26');
    expect(hidden().value).toBe('26/11/2026');
    // Once the page has caught up, a change of its own is shown.
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(hidden().value).toBe('');
  });
});
