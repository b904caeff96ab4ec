import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import { HOLIDAYS_SIGNAL, timetableSignal } from '@tc/domain/live';
import { useLiveSignal } from '../../lib/use-live-signal.ts';
import { attended, onNextInput } from '../../lib/attention.ts';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import VideocamIcon from '@mui/icons-material/Videocam';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useRef, useState, type FocusEvent } from 'react';
import type { ResponseOf } from '@tc/domain/api/contract';
import { UiMessage } from '@tc/domain/messages';
import { TimetableMessage } from '@tc/domain/timetable-messages';
import { joinState, timeUntil } from '@tc/domain/schedule';
import { JOIN_EARLY_MINUTES, WEEKDAYS } from '@tc/domain/timetable';
import { addDays, timeZoneLabel, todayIn, weekStartOf } from '@tc/domain/zoned-time';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { useApi, type CallAs, type CallResult } from '../../lib/use-api.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { InertButton } from '../../components/inert-button.tsx';
import { LoadStatus } from '../../components/load-status.tsx';

type Schedule = ResponseOf<'getMySchedule'>;
type ScheduledClass = Schedule['days'][number]['classes'][number];

/** "Wed 25 Nov": a centre date as written, read as a calendar date (no device zone involved). */
function dayLabel(date: string, weekday?: 'long'): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-IN', {
    timeZone: 'UTC',
    weekday: weekday ?? 'short',
    day: 'numeric',
    month: 'short',
  });
}

/** A clock that ticks every 30 seconds, for the countdown and the join window, and at once when the tab is shown again. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const tick = () => setNow(new Date());
    const timer = window.setInterval(tick, 30_000);
    const shown = () => document.visibilityState === 'visible' && tick();
    document.addEventListener('visibilitychange', shown);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', shown);
    };
  }, []);
  return now;
}

/** A class still on the card after its end (a device clock ahead of the server's): asked for again this often. */
const ENDED_CLASS_RETRY_MS = 60_000;

/** The student's schedule: Next class, This week, and the calendar feed. */
export function ScheduleSection() {
  const { token, call: callAsStudent } = useApi('student');
  // The week to read: undefined for the current one (the server's, whatever the device's clock says).
  const requested = useRef<string | undefined>(undefined);
  const [schedule, setSchedule] = useState<Schedule | null>(null);
  // The centre's day on this device when the schedule came (not the server's: clocks differ).
  const [readOnDay, setReadOnDay] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  // The request whose week is on screen (undefined: the current week, which follows the day),
  // once one is: a week asked for that does not come goes back to it, so that a reload reads
  // the week the student sees.
  const shown = useRef<{ request: string | undefined } | null>(null);
  const now = useNow();

  // Each read, and whether the student asked for it (a week's button: its failure is said).
  const [read, setRead] = useState({ count: 0, asked: false });
  // An admin's change of this batch's timetable or of the holidays: load the week again.
  const reload = () => setRead(({ count }) => ({ count: count + 1, asked: false }));
  const showWeek = (start: string | undefined) => {
    requested.current = start;
    setRead(({ count }) => ({ count: count + 1, asked: true }));
  };
  /**
   * A week before or after: from the week asked for and still on its way, if any, so that two
   * quick taps on Next move two weeks (from the week on screen, the second asked again for the first).
   */
  const stepWeek = (onScreen: Schedule, days: number) => {
    const onItsWay = requested.current !== shown.current?.request;
    // The current week on its way ("This week"): its Monday, from the day at the centre.
    const from = onItsWay ? (requested.current ?? weekStartOf(onScreen.today)) : onScreen.weekStart;
    showWeek(addDays(from, days));
  };
  // The batch of the week on screen, which follows the student's: moved to another batch, the
  // next read's answer names it (the profile's batch would keep the old one's changes).
  useLiveSignal(schedule ? timetableSignal(schedule.grade, schedule.board) : null, token, reload);
  useLiveSignal(HOLIDAYS_SIGNAL, token, reload);

  useEffect(() => {
    let cancelled = false;
    const week = requested.current;
    void callAsStudent('getMySchedule', week ? { week } : {}).then((result) => {
      if (cancelled) return;
      if (result.ok && result.data) {
        shown.current = { request: week };
        setSchedule(result.data);
        setReadOnDay(todayIn(result.data.timeZone));
        setFailed(false);
      } else if (!result.sessionEnded) {
        setFailed(true);
        // A read that did not come while a week is on screen: the next reads that week again
        // (the current one if that was asked for), and one the student asked for says so.
        // (The first load's failure shows in place of the schedule.)
        if (shown.current) {
          requested.current = shown.current.request;
          if (read.asked) notify.error(UiMessage.errorLoadingData);
        }
      }
    });
    return () => {
      cancelled = true;
    };
  }, [callAsStudent, read]);

  // A call the page makes by itself: with nobody at the page, at the next input instead,
  // so that a dashboard left open does not keep the session alive (lib/attention.ts).
  const [awaitingInput, setAwaitingInput] = useState(false);
  const catchUp = () => {
    if (attended()) reload();
    else setAwaitingInput(true);
  };
  useEffect(() => {
    if (!awaitingInput) return;
    return onNextInput(() => {
      setAwaitingInput(false);
      reload();
    });
  }, [awaitingInput]);

  // The class on the card has ended: ask for the next one, and again a minute later while
  // the server still gives the same (a device clock ahead of the server's).
  const next = schedule?.next;
  const [askedAfterEnd, setAskedAfterEnd] = useState<{ endsAt: string; at: number } | null>(null);
  if (
    next &&
    joinState(next, now) === 'over' &&
    (askedAfterEnd?.endsAt !== next.endsAt || now.getTime() - askedAfterEnd.at >= ENDED_CLASS_RETRY_MS)
  ) {
    setAskedAfterEnd({ endsAt: next.endsAt, at: now.getTime() });
    catchUp();
  }
  // A new day at the centre since the week was read (a tab left open overnight, or woken on
  // Monday): read again, so that "This week" and "Today" follow the day. Counted on this
  // device's clock alone, so a clock that disagrees with the server's asks once a day at most.
  // (Later only: the page's clock ticks every 30 s, and may be behind the day a read came on.)
  const dayNow = schedule ? todayIn(schedule.timeZone, now) : null;
  if (schedule && readOnDay !== null && dayNow !== null && dayNow > readOnDay) {
    setReadOnDay(dayNow);
    catchUp();
  }

  if (!schedule) {
    return (
      <Card component="section" sx={{ p: { xs: 2.5, sm: 4 }, mb: 3 }}>
        <LoadStatus
          failed={failed}
          failedText={TimetableMessage.scheduleNotLoaded}
          loadingText="Loading your timetable..."
          focusAfterLoad={() => document.getElementById('next-class-heading')}
          onRetry={() => {
            setFailed(false);
            reload();
          }}
        />
      </Card>
    );
  }

  const zone = timeZoneLabel(schedule.timeZone);
  return (
    <>
      <NextClassCard
        next={schedule.next}
        following={schedule.following}
        hasTimetable={schedule.hasTimetable}
        zone={zone}
        now={now}
      />
      <WeekCard
        schedule={schedule}
        zone={zone}
        onThisWeek={() => showWeek(undefined)}
        onStep={(days) => stepWeek(schedule, days)}
      />
      {/* Shown with no timetable too: a link given out before a move to an empty batch can still be replaced. */}
      <CalendarCard callAsStudent={callAsStudent} hasTimetable={schedule.hasTimetable} />
    </>
  );
}

function NextClassCard({
  next,
  following,
  hasTimetable,
  zone,
  now,
}: {
  next?: ScheduledClass;
  /** The class straight after `next`, shown once its Join opens (classes back to back). */
  following?: ScheduledClass;
  hasTimetable: boolean;
  zone: string;
  now: Date;
}) {
  const handedOver = next && following && joinState(next, now) === 'over';
  return (
    <Card component="section" aria-labelledby="next-class-heading" sx={{ p: { xs: 2.5, sm: 4 }, mb: 3 }}>
      <Typography id="next-class-heading" variant="h2" sx={{ mb: 2 }}>
        Next class
      </Typography>
      {!next ? (
        <Typography color="text.secondary">
          {hasTimetable
            ? 'No class is coming up.'
            : 'Your batch has no timetable yet: your classes will appear here as soon as the centre adds them.'}
        </Typography>
      ) : (
        // The class straight after takes the card once the one going on has ended, until the
        // next read names it (a read waits for someone at the page).
        <NextClassDetails next={handedOver ? following : next} zone={zone} now={now} />
      )}
      {next && following && !handedOver && joinState(following, now) === 'open' && (
        // Both Joins open, as learning.md asks: the class going on until its end, the next one
        // from 10 minutes before its start.
        <Box
          component="section"
          aria-labelledby="straight-after-heading"
          sx={{ mt: 3, pt: 3, borderTop: 1, borderColor: 'divider' }}
        >
          <Typography id="straight-after-heading" variant="h3" sx={{ fontSize: '1.1rem', fontWeight: 700, mb: 1.5 }}>
            Straight after
          </Typography>
          <NextClassDetails next={following} zone={zone} now={now} />
        </Box>
      )}
    </Card>
  );
}

function NextClassDetails({ next, zone, now }: { next: ScheduledClass; zone: string; now: Date }) {
  const state = joinState(next, now);
  const started = Date.parse(next.startsAt) <= now.getTime();
  // Named by its subject: with classes back to back the card has two Join buttons.
  const subjectId = `class-${next.slotId}-${next.date}`;
  return (
    <Stack spacing={1.5} role="group" aria-labelledby={subjectId}>
      <Box>
        <Typography id={subjectId} sx={{ fontSize: '1.35rem', fontWeight: 800 }}>
          {next.subject}
        </Typography>
        <Typography>with {next.teacher}</Typography>
      </Box>
      <Typography>
        {dayLabel(next.date, 'long')}, {next.start}-{next.end} {zone}
      </Typography>
      <Typography sx={{ fontWeight: 700 }} color="primary">
        {started ? 'Going on now' : `Starts ${timeUntil(next.startsAt, now)}`}
      </Typography>
      {next.link ? (
        <Box>
          {state === 'open' ? (
            // A button in both states (as a closed one is, and as the spec names it) that opens
            // the class's link: a link's role would change under a screen reader's user as the
            // window opens. Space presses it, as any button's; Enter follows the link.
            <Button
              variant="contained"
              color="secondary"
              startIcon={<VideocamIcon />}
              href={next.link}
              {...NEW_TAB}
              role="button"
              // As a button: Space pressed does not scroll the page, and its release opens the
              // class once, however long the key was held.
              onKeyDown={(event) => {
                if (event.key === ' ') event.preventDefault();
              }}
              onKeyUp={(event) => {
                if (event.key === ' ') event.currentTarget.click();
              }}
            >
              Join class
            </Button>
          ) : (
            <Button variant="contained" color="secondary" startIcon={<VideocamIcon />} disabled>
              Join class
            </Button>
          )}
          {state === 'early' && (
            <Typography color="text.secondary" sx={{ mt: 1, fontSize: '0.95rem' }}>
              Join class opens {JOIN_EARLY_MINUTES} minutes before the start.
            </Typography>
          )}
        </Box>
      ) : (
        <Typography color="text.secondary">This class has no online link.</Typography>
      )}
    </Stack>
  );
}

/** " week" after Previous and Next from a tablet up; a phone's row holds the short words. */
const WIDE_ONLY = { display: { xs: 'none', sm: 'inline' } } as const;

/** A link's button that opens another site in a new tab, and says so to a screen reader. */
const NEW_TAB = { target: '_blank', rel: 'noopener noreferrer', 'aria-description': 'Opens in a new tab' } as const;

function WeekCard({
  schedule,
  zone,
  onThisWeek,
  onStep,
}: {
  schedule: Schedule;
  zone: string;
  /** Back to the current week. */
  onThisWeek: () => void;
  /** A week before (-7) or after (7). */
  onStep: (days: number) => void;
}) {
  const { days, today, weekStart } = schedule;
  const isThisWeek = days.some((d) => d.date === today);
  const heading = useRef<HTMLHeadingElement>(null);
  const wide = useMediaQuery(useTheme().breakpoints.up('sm'), { noSsr: true });
  // Previous and Next never move under the finger or the pointer: This week comes before them
  // where the buttons line up on the right, after them on a phone, where they start on the left;
  // in the page's order too, so the tab order is the order on screen.
  const thisWeekButton = !isThisWeek && (
    <Button
      onClick={() => {
        // The button goes with the week it leaves: the focus stays on the week, not the page's start.
        heading.current?.focus();
        onThisWeek();
      }}
    >
      This week
    </Button>
  );
  return (
    <Card component="section" aria-labelledby="week-heading" sx={{ p: { xs: 2.5, sm: 4 }, mb: 3 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' }, mb: 2 }}
      >
        <Box>
          {/* Read out when Previous or Next changes the week. */}
          <Typography
            id="week-heading"
            ref={heading}
            tabIndex={-1}
            variant="h2"
            aria-live="polite"
            sx={{ outline: 'none' }}
          >
            {isThisWeek ? 'This week' : `Week of ${dayLabel(weekStart)}`}
          </Typography>
          <Typography color="text.secondary" sx={{ fontSize: '0.95rem' }}>
            Times in {zone}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: { xs: 'wrap', sm: 'nowrap' }, flexShrink: 0 }}>
          {wide && thisWeekButton}
          <Button startIcon={<ChevronLeftIcon />} aria-label="Previous week" onClick={() => onStep(-7)}>
            Previous
            <Box component="span" sx={WIDE_ONLY}>
              &nbsp;week
            </Box>
          </Button>
          <Button endIcon={<ChevronRightIcon />} aria-label="Next week" onClick={() => onStep(7)}>
            Next
            <Box component="span" sx={WIDE_ONLY}>
              &nbsp;week
            </Box>
          </Button>
          {!wide && thisWeekButton}
        </Stack>
      </Stack>
      <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {days.map((day) => {
          const isToday = day.date === today;
          return (
            <Box
              component="li"
              key={day.date}
              aria-current={isToday ? 'date' : undefined}
              sx={{
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', sm: '150px 1fr' },
                columnGap: 2,
                rowGap: 0.5,
                py: 1.25,
                px: 1,
                borderTop: 1,
                borderColor: 'divider',
                borderRadius: isToday ? 2 : 0,
                bgcolor: isToday ? 'action.selected' : undefined,
              }}
            >
              <Typography component="div" sx={{ fontWeight: 700 }}>
                {WEEKDAYS[day.weekday - 1]} {dayLabel(day.date).replace(/^\w+,?\s*/, '')}
                {isToday && <Chip label="Today" size="small" color="primary" sx={{ ml: 1 }} />}
              </Typography>
              {/* A long title or name with no space (an admin's 80 characters) wraps rather than runs out of the card. */}
              <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                {day.holiday ? (
                  <Typography component="div">
                    <Chip label="Holiday" size="small" color="secondary" sx={{ mr: 1 }} />
                    {day.holiday}
                  </Typography>
                ) : day.classes.length === 0 ? (
                  <Typography color="text.secondary">No class</Typography>
                ) : (
                  day.classes.map((c) => (
                    <Typography key={c.slotId}>
                      {c.start}-{c.end} {c.subject}{' '}
                      <Box component="span" sx={{ color: 'text.secondary' }}>
                        ({c.teacher})
                      </Box>
                    </Typography>
                  ))
                )}
              </Box>
            </Box>
          );
        })}
      </Box>
    </Card>
  );
}

type Feed = ResponseOf<'getMyCalendarFeed'>;

/**
 * Google Calendar's page that subscribes to a feed (`cid`, the webcal:// address): it asks
 * the signed-in Google user to confirm. Google fetches the feed itself, so it must be
 * reachable from the internet, over HTTPS.
 */
function googleCalendarUrl(webcalUrl: string): string {
  return `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcalUrl)}`;
}

function CalendarCard({ callAsStudent, hasTimetable }: { callAsStudent: CallAs; hasTimetable: boolean }) {
  const [feed, setFeed] = useState<Feed | null>(null);
  const [busy, setBusy] = useState(false);
  // A new link stops the old one in every calendar that subscribed: asked first.
  const [asking, setAsking] = useState(false);
  const linkField = useRef<HTMLInputElement>(null);
  // The link shown (or replaced) takes the focus, selected to copy: the button pressed has gone or is busy.
  useEffect(() => {
    if (feed) linkField.current?.focus();
  }, [feed]);

  const answer = (result: CallResult<Feed>, toast?: string) => {
    setBusy(false);
    setAsking(false);
    if (result.ok && result.data) {
      setFeed(result.data);
      if (toast) notify.success(toast);
    } else if (!result.sessionEnded) notify.error(errorText(result, UiMessage.anErrorOccurred));
  };

  const show = async () => {
    setBusy(true);
    answer(await callAsStudent('getMyCalendarFeed', {}));
  };
  const reset = async () => {
    setBusy(true);
    answer(await callAsStudent('resetMyCalendarFeed', {}), TimetableMessage.feedReset);
  };
  const copy = async () => {
    if (!feed) return;
    try {
      await navigator.clipboard.writeText(feed.url);
      notify.success(TimetableMessage.linkCopied);
    } catch {
      notify.error('Copy failed: select the link and copy it');
    }
  };

  return (
    <Card component="section" aria-labelledby="calendar-heading" sx={{ p: { xs: 2.5, sm: 4 }, mb: 3 }}>
      <Typography id="calendar-heading" variant="h2" sx={{ mb: 1 }}>
        Your calendar
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Subscribe to your classes in Google Calendar, Apple Calendar or Outlook. The link is private: anyone who has it
        can see your timetable.
        {!hasTimetable &&
          ' Your batch has no classes yet: a calendar that has subscribed shows them once they are added.'}
      </Typography>
      {!feed ? (
        <InertButton
          variant="outlined"
          startIcon={<CalendarMonthIcon />}
          onClick={() => void show()}
          unavailable={busy}
        >
          Add to my calendar
        </InertButton>
      ) : (
        <Stack spacing={2}>
          <TextField
            label="Your private calendar link"
            value={feed.url}
            fullWidth
            inputRef={linkField}
            slotProps={{
              htmlInput: { readOnly: true, onFocus: (e: FocusEvent<HTMLInputElement>) => e.currentTarget.select() },
            }}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button variant="contained" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
              Copy link
            </Button>
            {/* Android's calendar is Google's, and Chrome there does nothing with a webcal:// link:
                Google Calendar subscribes (surely so on a computer), and the phone's app follows. */}
            <Button
              variant="outlined"
              href={googleCalendarUrl(feed.webcalUrl)}
              {...NEW_TAB}
              startIcon={<EventAvailableIcon />}
            >
              Add to Google Calendar
            </Button>
            <Button variant="outlined" href={feed.webcalUrl} startIcon={<CalendarMonthIcon />}>
              Open in calendar app
            </Button>
            <InertButton onClick={() => setAsking(true)} unavailable={busy}>
              Get a new link
            </InertButton>
          </Stack>
          <Typography color="text.secondary" sx={{ fontSize: '0.95rem' }}>
            Google Calendar (Android phones): Add to Google Calendar, best on a computer; the phone&apos;s calendar then
            shows your classes too. iPhone, iPad or Mac: Open in calendar app. Outlook: copy the link and add a calendar
            from the internet.
          </Typography>
        </Stack>
      )}
      <ConfirmDialog
        open={asking}
        title="Get a new calendar link?"
        text="The link you have now stops working at once: every calendar that subscribed to it shows no more classes until you subscribe again with the new one. Do this if someone else has your link."
        action="Get a new link"
        busy={busy}
        onConfirm={() => void reset()}
        onCancel={() => setAsking(false)}
      />
    </Card>
  );
}
