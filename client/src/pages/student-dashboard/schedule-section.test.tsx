import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timetableSignal } from '@tc/domain/live';
import { UiMessage } from '@tc/domain/messages';
import { addDays } from '@tc/domain/zoned-time';
import { mockFetch, renderApp, type MockReply } from '../../test/render-app.tsx';
import { profile, signIn } from '../../test/student.ts';

/** The live updates the page follows, by key, as it asks for them (no socket in these tests). */
const followed = vi.hoisted(() => [] as (string | null)[]);
vi.mock('../../lib/use-live-signal.ts', () => ({
  useLiveSignal: (key: string | null) => {
    if (followed.at(-1) !== key) followed.push(key);
  },
}));

const savedTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = savedTz;
});

/** A week starting 2026-11-23 with one class whose start is `startsInMinutes` from now. */
function schedule(startsInMinutes: number, link = 'https://meet.example.com/m') {
  const startsAt = new Date(Date.now() + startsInMinutes * 60_000);
  const next = {
    slotId: 's1',
    subject: 'Mathematics',
    teacher: 'Mrs Rao',
    board: 'ICSE',
    link,
    date: '2026-11-24',
    start: '18:00',
    end: '19:00',
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + 60 * 60_000).toISOString(),
  };
  return {
    timeZone: 'Asia/Kolkata',
    today: '2026-11-23',
    weekStart: '2026-11-23',
    grade: 3,
    board: 'ICSE',
    hasTimetable: true,
    next,
    days: Array.from({ length: 7 }, (_, i) => ({
      date: addDays('2026-11-23', i),
      weekday: i + 1,
      holiday: i === 2 ? 'Founders day' : '',
      classes: i === 1 ? [next] : [],
    })),
  };
}

/** The week starting `start` (a Monday), with no class and no holiday. */
const weekFrom = (start: string) => ({
  ...schedule(600),
  weekStart: start,
  days: schedule(600).days.map((day, i) => ({ ...day, date: addDays(start, i), holiday: '', classes: [] })),
});

/** Serves the schedule as `answer` says for the week asked (null: the current one); the weeks asked, by their Monday. */
function serveWeeks(answer: (week: string | null) => MockReply | Promise<MockReply>): string[] {
  const weeks: string[] = [];
  mockFetch({
    'GET /api/students/me': () => ({ body: profile }),
    'GET /api/students/me/schedule': (_body, url) => {
      const week = url.searchParams.get('week');
      if (week) weeks.push(week);
      return answer(week);
    },
  });
  return weeks;
}

function serve(body: object) {
  return mockFetch({
    'GET /api/students/me': () => ({ body: profile }),
    'GET /api/students/me/schedule': () => ({ body }),
    'GET /api/students/me/calendar': () => ({
      body: { url: 'http://localhost/api/calendar/abc.ics', webcalUrl: 'webcal://localhost/api/calendar/abc.ics' },
    }),
  });
}

/** The current week comes; any other asked for by its Monday does not (503). */
function serveOtherWeeksFailing() {
  return mockFetch({
    'GET /api/students/me': () => ({ body: profile }),
    'GET /api/students/me/schedule': (_body, url) =>
      url.searchParams.get('week')
        ? { status: 503, body: { code: 3503, error: 'Try again' } }
        : { body: schedule(600) },
  });
}

/**
 * Runs `test` on a clock of the test's (the page's own minute ticks too), from `start` on:
 * it moves with real time, and a test may jump it.
 */
async function onPageClock(start: Date | number, test: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({
    toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    shouldAdvanceTime: true,
  });
  vi.setSystemTime(start);
  try {
    await test();
  } finally {
    vi.useRealTimers();
  }
}

describe('the schedule on the student dashboard', () => {
  it("shows the class at the centre's time whatever the device zone, today and holidays marked", async () => {
    process.env.TZ = 'America/Los_Angeles';
    signIn();
    serve(schedule(120));
    renderApp('/dashboard');
    const next = await screen.findByRole('region', { name: 'Next class' });
    expect(await within(next).findByText('Mathematics')).toBeInTheDocument();
    expect(within(next).getByText(/Tuesday, 24 Nov, 18:00-19:00 IST/)).toBeInTheDocument();
    expect(within(next).getByText('Starts in 2 h')).toBeInTheDocument();
    expect(within(next).getByRole('button', { name: 'Join class' })).toBeDisabled();
    expect(within(next).getByText('Join class opens 10 minutes before the start.')).toBeInTheDocument();
    const week = screen.getByRole('region', { name: 'This week' });
    expect(within(week).getByText('Today')).toBeInTheDocument();
    expect(within(week).getByText('Founders day')).toBeInTheDocument();
    expect(within(week).getByText(/18:00-19:00 Mathematics/)).toBeInTheDocument();
  });

  it('opens Join class from 10 minutes before the start, a button that goes to the class', async () => {
    signIn();
    serve(schedule(9));
    renderApp('/dashboard');
    const join = await screen.findByRole('button', { name: 'Join class' });
    expect(join).toBeEnabled();
    expect(screen.queryByRole('link', { name: 'Join class' })).toBeNull();
    expect(join).toHaveAttribute('href', 'https://meet.example.com/m');
    // A new tab, said to a screen reader too.
    expect(join).toHaveAttribute('target', '_blank');
    expect(join).toHaveAttribute('aria-description', 'Opens in a new tab');
    expect(join).toHaveAttribute('rel', 'noopener noreferrer');
    // Space presses it, as any button (Enter follows the link as a link's does).
    const clicks = vi.fn();
    join.addEventListener('click', (event) => {
      event.preventDefault();
      clicks();
    });
    join.focus();
    await userEvent.keyboard(' ');
    expect(clicks).toHaveBeenCalledTimes(1);
    // Held down (the key repeating), it opens the class once, on release.
    await userEvent.keyboard('[Space>5/]');
    expect(clicks).toHaveBeenCalledTimes(2);
  });

  it('asks for the next week, and shows the private calendar link with its webcal:// twin', async () => {
    signIn();
    const { calls } = serve(schedule(600));
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Next week' }));
    expect(calls.some((c) => c.url.searchParams.get('week') === '2026-11-30')).toBe(true);
    await userEvent.click(await screen.findByRole('button', { name: 'Add to my calendar' }));
    expect(await screen.findByLabelText('Your private calendar link')).toHaveValue(
      'http://localhost/api/calendar/abc.ics',
    );
    expect(screen.getByRole('link', { name: 'Open in calendar app' })).toHaveAttribute(
      'href',
      'webcal://localhost/api/calendar/abc.ics',
    );
    // Android's Chrome does nothing with webcal://: Google Calendar's own page subscribes, in a new tab.
    const google = screen.getByRole('link', { name: 'Add to Google Calendar' });
    expect(google).toHaveAttribute(
      'href',
      'https://calendar.google.com/calendar/render?cid=webcal%3A%2F%2Flocalhost%2Fapi%2Fcalendar%2Fabc.ics',
    );
    expect(google).toHaveAttribute('target', '_blank');
    expect(google).toHaveAttribute('aria-description', 'Opens in a new tab');
  });

  it('offers "This week" on another week, which brings the current week back', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/students/me': () => ({ body: profile }),
      'GET /api/students/me/schedule': (_body, url) => ({
        body: url.searchParams.get('week') ? weekFrom(url.searchParams.get('week')!) : schedule(600),
      }),
    });
    renderApp('/dashboard');
    await screen.findByRole('region', { name: 'This week' });
    expect(screen.queryByRole('button', { name: 'This week' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Next week' }));
    await screen.findByRole('region', { name: /^Week of .*30 Nov/ });
    await userEvent.click(screen.getByRole('button', { name: 'Next week' }));
    const shown = await screen.findByRole('region', { name: /^Week of .*7 Dec/ });
    expect(shown).toHaveAccessibleName(/7 Dec/);
    await userEvent.click(within(shown).getByRole('button', { name: 'This week' }));
    expect(await screen.findByRole('region', { name: 'This week' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'This week' })).toBeNull();
    // The button went with the other week: the focus is on the week's heading, not the page's start.
    expect(screen.getByRole('heading', { name: 'This week' })).toHaveFocus();
    // Asked for without a week: the server's current week, whatever the device's clock says.
    expect(
      calls
        .filter((c) => c.path === '/api/students/me/schedule')
        .at(-1)
        ?.url.searchParams.has('week'),
    ).toBe(false);
  });

  it('moves two weeks on two quick taps of Next, the first week still on its way', async () => {
    signIn();
    // Another week's answer never comes: each stays on its way.
    const weeks = serveWeeks((week) => (week ? new Promise<MockReply>(() => undefined) : { body: schedule(600) }));
    renderApp('/dashboard');
    await screen.findByRole('region', { name: 'This week' });
    await userEvent.click(screen.getByRole('button', { name: 'Next week' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next week' }));
    await waitFor(() => expect(weeks).toEqual(['2026-11-30', '2026-12-07']));
    // Previous, the second still on its way: the week before it.
    await userEvent.click(screen.getByRole('button', { name: 'Previous week' }));
    await waitFor(() => expect(weeks).toEqual(['2026-11-30', '2026-12-07', '2026-11-30']));
  });

  it('after "This week" on another week, a quick Next asks for the week after the current one', async () => {
    signIn();
    const currentWeek: Array<() => void> = [];
    let held = false;
    // The current week: at once the first time, then held (on its way) while Next is pressed.
    const weeks = serveWeeks((week) =>
      week
        ? { body: weekFrom(week) }
        : held
          ? new Promise<MockReply>((resolve) => currentWeek.push(() => resolve({ body: schedule(600) })))
          : { body: schedule(600) },
    );
    renderApp('/dashboard');
    await screen.findByRole('region', { name: 'This week' });
    await userEvent.click(screen.getByRole('button', { name: 'Next week' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next week' }));
    const shown = await screen.findByRole('region', { name: /^Week of .*7 Dec/ });
    held = true;
    await userEvent.click(within(shown).getByRole('button', { name: 'This week' }));
    await waitFor(() => expect(currentWeek).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Next week' }));
    await waitFor(() => expect(weeks).toEqual(['2026-11-30', '2026-12-07', '2026-11-30']));
  });

  it('says when a week does not come, keeps the week on screen, and asks again on the next click', async () => {
    signIn();
    const { calls } = serveOtherWeeksFailing();
    renderApp('/dashboard');
    const next = await screen.findByRole('button', { name: 'Next week' });
    await userEvent.click(next);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.errorLoadingData));
    expect(within(screen.getByRole('region', { name: 'This week' })).getByText('Today')).toBeInTheDocument();
    const asked = () => calls.filter((c) => c.url.searchParams.get('week') === '2026-11-30').length;
    expect(asked()).toBe(1);
    await userEvent.click(screen.getByRole('button', { name: 'Next week' }));
    await waitFor(() => expect(asked()).toBe(2));
  });

  it('says when "This week" does not come, keeps the week on screen, and asks again on the next click', async () => {
    signIn();
    let current = 0;
    const { calls } = mockFetch({
      'GET /api/students/me': () => ({ body: profile }),
      'GET /api/students/me/schedule': (_body, url) => {
        const week = url.searchParams.get('week');
        if (week) return { body: { ...schedule(600), weekStart: week, days: [] } };
        return ++current === 1 ? { body: schedule(600) } : { status: 503, body: { code: 3503, error: 'Try again' } };
      },
    });
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Next week' }));
    const shown = await screen.findByRole('region', { name: /^Week of .*30 Nov/ });
    await userEvent.click(within(shown).getByRole('button', { name: 'This week' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.errorLoadingData));
    expect(screen.getByRole('region', { name: /^Week of .*30 Nov/ })).toBeInTheDocument();
    const asked = () => calls.filter((c) => c.path === '/api/students/me/schedule' && !c.url.searchParams.has('week'));
    expect(asked()).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'This week' }));
    await waitFor(() => expect(asked()).toHaveLength(3));
  });

  it('says when the timetable does not come, and loads it again on "Try again"', async () => {
    signIn();
    let answers = 0;
    mockFetch({
      'GET /api/students/me': () => ({ body: profile }),
      'GET /api/students/me/schedule': () =>
        ++answers === 1 ? { status: 503, body: { code: 3503, error: 'Try again' } } : { body: schedule(600) },
      'GET /api/students/me/calendar': () => ({
        body: { url: 'http://localhost/api/calendar/abc.ics', webcalUrl: 'webcal://localhost/api/calendar/abc.ics' },
      }),
    });
    renderApp('/dashboard');
    expect(await screen.findByText('Your timetable could not be loaded.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const next = await screen.findByRole('region', { name: 'Next class' });
    expect(await within(next).findByText('Mathematics')).toBeInTheDocument();
    expect(screen.queryByText('Your timetable could not be loaded.')).not.toBeInTheDocument();
    expect(answers).toBe(2);
    // The focus goes on from the status to what came in its place.
    await waitFor(() => expect(within(next).getByRole('heading', { name: 'Next class' })).toHaveFocus());
  });

  it('asks for the next class once the one on the card has ended', async () => {
    signIn();
    const { calls } = serve(schedule(-120));
    renderApp('/dashboard');
    const asked = () => calls.filter((c) => c.path === '/api/students/me/schedule').length;
    await waitFor(() => expect(asked()).toBe(2));
  });

  it('shows the class straight after the one going on, with its own Join, from 10 minutes before its start', async () => {
    await onPageClock(new Date(), async () => {
      signIn();
      // Mathematics ends in 12 minutes; Science starts then.
      const going = schedule(-48);
      const science = {
        ...going.next,
        slotId: 's2',
        subject: 'Science',
        teacher: 'Mr Iyer',
        link: 'https://meet.example.com/s',
        start: '19:00',
        end: '20:00',
        startsAt: going.next.endsAt,
        endsAt: new Date(Date.parse(going.next.endsAt) + 60 * 60_000).toISOString(),
      };
      serve({ ...going, following: science });
      renderApp('/dashboard');
      const card = await screen.findByRole('region', { name: 'Next class' });
      expect(await within(card).findByText('Mathematics')).toBeInTheDocument();
      expect(within(card).queryByText('Science')).not.toBeInTheDocument();
      // Two minutes on, ten before Science: both Joins are open.
      await act(() => vi.advanceTimersByTimeAsync(2 * 60_000 + 30_000));
      const after = await within(card).findByRole('region', { name: 'Straight after' });
      expect(within(after).getByText('Science')).toBeInTheDocument();
      expect(within(after).getByRole('button', { name: 'Join class' })).toHaveAttribute(
        'href',
        'https://meet.example.com/s',
      );
      // Each Join in a group named by its class's subject.
      const maths = within(card).getByRole('group', { name: 'Mathematics' });
      expect(within(maths).getByRole('button', { name: 'Join class' })).toHaveAttribute(
        'href',
        'https://meet.example.com/m',
      );
      expect(within(card).getByRole('group', { name: 'Science' })).toBeInTheDocument();
      // Mathematics over, before the page has read the schedule again: Science alone, as the class going on.
      await act(() => vi.advanceTimersByTimeAsync(10 * 60_000));
      expect(within(card).queryByRole('region', { name: 'Straight after' })).not.toBeInTheDocument();
      expect(within(card).queryByText('Mathematics')).not.toBeInTheDocument();
      expect(within(card).getByText('Science')).toBeInTheDocument();
      expect(within(card).getByText('Going on now')).toBeInTheDocument();
      expect(within(card).getByRole('button', { name: 'Join class' })).toHaveAttribute(
        'href',
        'https://meet.example.com/s',
      );
    });
  });

  it("follows the timetable of the batch its last read named: a student moved to another batch gets that batch's changes", async () => {
    signIn();
    followed.length = 0;
    let reads = 0;
    mockFetch({
      'GET /api/students/me': () => ({ body: profile }),
      // Moved from 3rd ICSE to 4th ICSE between the first read and the second.
      'GET /api/students/me/schedule': () => ({ body: { ...schedule(60), grade: ++reads === 1 ? 3 : 4 } }),
    });
    renderApp('/dashboard');
    await waitFor(() => expect(followed).toContain(timetableSignal(3, 'ICSE')));
    await userEvent.click(await screen.findByRole('button', { name: 'Next week' }));
    await waitFor(() => expect(reads).toBe(2));
    await waitFor(() =>
      expect(followed.filter((key) => key?.startsWith('timetable:')).at(-1)).toBe(timetableSignal(4, 'ICSE')),
    );
  });

  it('with nobody at the page, asks for it at the next key or pointer press, not by itself', async () => {
    // Eleven minutes without input: the page is unattended (lib/attention.ts).
    // The page's own clock too (its minute ticks), on the test's: a few minutes pass at once.
    await onPageClock(Date.now() + 11 * 60_000, async () => {
      signIn();
      const { calls } = serve(schedule(-120));
      renderApp('/dashboard');
      const asked = () => calls.filter((c) => c.path === '/api/students/me/schedule').length;
      await screen.findByText('Mathematics', { selector: 'p' });
      await act(() => vi.advanceTimersByTimeAsync(3 * 60_000));
      expect(asked()).toBe(1);
      window.dispatchEvent(new Event('pointerdown'));
      await waitFor(() => expect(asked()).toBe(2));
    });
  });

  it('reads the week again when the day changes at the centre with the page open, and when a tab is shown again on a new day', async () => {
    // Half a minute before midnight at the centre.
    await onPageClock(new Date('2026-11-23T23:59:30+05:30'), async () => {
      signIn();
      const { calls } = serve(schedule(600));
      renderApp('/dashboard');
      await screen.findByRole('region', { name: 'This week' });
      const asked = () => calls.filter((c) => c.path === '/api/students/me/schedule').length;
      // Someone is at the page.
      window.dispatchEvent(new Event('pointerdown'));
      expect(asked()).toBe(1);
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      await waitFor(() => expect(asked()).toBe(2));
      // Once for the day, whatever the server says today is.
      await act(() => vi.advanceTimersByTimeAsync(5 * 60_000));
      expect(asked()).toBe(2);
      // A tab brought back the next morning asks at once, before its clock's next tick.
      vi.setSystemTime(new Date('2026-11-25T07:00:00+05:30'));
      window.dispatchEvent(new Event('pointerdown'));
      document.dispatchEvent(new Event('visibilitychange'));
      await waitFor(() => expect(asked()).toBe(3));
    });
  });

  it('after a week that did not come, follows the day again: a new day reads the current week, not a fixed one', async () => {
    await onPageClock(new Date('2026-11-29T23:59:30+05:30'), async () => {
      signIn();
      const { calls } = serveOtherWeeksFailing();
      renderApp('/dashboard');
      await userEvent.click(await screen.findByRole('button', { name: 'Next week' }));
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.errorLoadingData));
      const reads = () => calls.filter((c) => c.path === '/api/students/me/schedule');
      expect(reads()).toHaveLength(2);
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      await waitFor(() => expect(reads()).toHaveLength(3));
      expect(reads().at(-1)?.url.searchParams.has('week')).toBe(false);
    });
  });

  it('asks for a class still on the card after its end again a minute later (a device clock ahead of the server)', async () => {
    await onPageClock(new Date(), async () => {
      signIn();
      // The server gives the ended class each time.
      const { calls } = serve(schedule(-120));
      renderApp('/dashboard');
      const asked = () => calls.filter((c) => c.path === '/api/students/me/schedule').length;
      window.dispatchEvent(new Event('pointerdown'));
      await waitFor(() => expect(asked()).toBe(2));
      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(asked()).toBe(2);
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      await waitFor(() => expect(asked()).toBe(3));
    });
  });

  it('says when the batch has no timetable yet', async () => {
    signIn();
    const empty = { ...schedule(60), hasTimetable: false, next: undefined };
    serve({ ...empty, days: empty.days.map((d) => ({ ...d, classes: [] })) });
    renderApp('/dashboard');
    expect(await screen.findByText(/Your batch has no timetable yet/)).toBeInTheDocument();
    // The calendar link can still be shown and replaced (one given out before a move to this batch).
    const calendar = screen.getByRole('region', { name: 'Your calendar' });
    expect(calendar).toHaveTextContent('Your batch has no classes yet');
    expect(within(calendar).getByRole('button', { name: 'Add to my calendar' })).toBeEnabled();
  });
});
