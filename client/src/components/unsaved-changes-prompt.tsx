import { lazy, Suspense, useContext, useEffect, useRef, useState, type ComponentType } from 'react';
import { UNSAFE_DataRouterContext, useBlocker, type Location } from 'react-router-dom';
import { Route } from '@tc/domain/routes';
import { unsavedWork } from '../lib/unsaved-work.ts';
import { isViewWrite } from '../lib/use-view-in-address.ts';
import type { LeaveDialogProps } from './leave-dialog.tsx';

/** Where a session that has ended goes: unsaved work there could not be saved anyway. */
const LOGIN_ROUTES: readonly string[] = [Route.adminLogin, Route.studentLogin];

/** A path as the routes match it (without regard to case: /Registeruser is /registeruser). */
const samePath = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

interface PromptProps {
  /** There is something to lose. */
  when: boolean;
  /** The question, "Leave without saving?" unless told. */
  title?: string;
  /** What leaving loses. */
  message: string;
  /**
   * Pages a move to is never asked about: where the work's own completion goes (the
   * registration's /thank-you), or by default the logins a session that ended goes to.
   */
  goesOnTo?: readonly string[];
  /**
   * The page's own changes of its view in the address (useViewInAddress: a table moving off a
   * page past its last) are not a move away: the work stays on screen (the student's editor
   * over the table). Off where another view drops the work (another assessment's marks).
   */
  viewChangesKeepIt?: boolean;
}

type Place = Pick<Location, 'pathname' | 'search' | 'state'>;

/** Whether a move from `current` to `next` would drop the work, and is asked about first. */
export function movesAway(
  {
    when,
    goesOnTo,
    viewChangesKeepIt,
  }: Required<Pick<PromptProps, 'when' | 'goesOnTo'>> & Pick<PromptProps, 'viewChangesKeepIt'>,
  current: Place,
  next: Place,
): boolean {
  if (!when || goesOnTo.some((path) => samePath(path, next.pathname))) return false;
  if (!samePath(current.pathname, next.pathname)) return true;
  if (current.search === next.search) return false;
  return !(viewChangesKeepIt && isViewWrite(next.state));
}

const loadLeaveDialog = () => import('./leave-dialog.tsx');

/** The browser's own question, where the dialog's code could not be fetched (the network gone): once per asking. */
function BrowserQuestion({ open, title, message, onStay, onLeave }: LeaveDialogProps) {
  const asked = useRef(false);
  useEffect(() => {
    if (!open) {
      asked.current = false;
      return;
    }
    if (asked.current) return;
    asked.current = true;
    if (window.confirm(`${title}\n\n${message}`)) onLeave();
    else onStay();
  }, [open, title, message, onStay, onLeave]);
  return null;
}

const LoadedLeaveDialog = lazy((): Promise<{ default: ComponentType<LeaveDialogProps> }> =>
  loadLeaveDialog().catch(() => ({ default: BrowserQuestion })),
);

/**
 * The dialog, fetched as soon as there is something to lose (the prompt's effect) and
 * rendered from its first question on: closing then runs as any dialog's (its fade, the
 * focus given back). A move asked for before it has arrived waits, blocked, until it shows.
 */
function LeaveDialog(props: LeaveDialogProps) {
  const [asked, setAsked] = useState(false);
  if (props.open && !asked) setAsked(true);
  if (!asked && !props.open) return null;
  return (
    <Suspense fallback={null}>
      <LoadedLeaveDialog {...props} />
    </Suspense>
  );
}

/** `onLeaving`: called as the person chooses to leave, before the move. */
function BlockingDialog({
  when,
  title,
  message,
  goesOnTo,
  viewChangesKeepIt,
  onLeaving,
}: Required<Omit<PromptProps, 'viewChangesKeepIt'>> &
  Pick<PromptProps, 'viewChangesKeepIt'> & { onLeaving: () => void }) {
  // Any move to another page or view (another assessment's marks is a new query string),
  // but to the pages it lets through.
  const blocker = useBlocker(({ currentLocation, nextLocation }) =>
    movesAway({ when, goesOnTo, viewChangesKeepIt }, currentLocation, nextLocation),
  );
  return (
    <LeaveDialog
      open={blocker.state === 'blocked'}
      title={title}
      message={message}
      onStay={() => blocker.reset?.()}
      onLeave={() => {
        onLeaving();
        blocker.proceed?.();
      }}
    />
  );
}

/**
 * Keeps unsaved work from an accidental navigation: links inside the site ask
 * first (react-router's useBlocker, in the app's data router), logging out asks
 * first (unsavedWork), and closing or reloading the tab gets the browser's own
 * question (beforeunload).
 */
export function UnsavedChangesPrompt({
  when,
  title = 'Leave without saving?',
  message,
  goesOnTo = LOGIN_ROUTES,
  viewChangesKeepIt = false,
}: PromptProps) {
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  const [asking, setAsking] = useState(false);
  const answer = useRef<((leave: boolean) => void) | null>(null);
  // Lets the work go once the person has chosen to leave it: while the next page loads this
  // one stays on screen, and a page's code that failed to load reloads the site again
  // (main.tsx) once nothing unsaved is registered, without the browser's question.
  const release = useRef<() => void>(() => undefined);

  const reply = (leave: boolean) => {
    if (leave) release.current();
    answer.current?.(leave);
    answer.current = null;
    setAsking(false);
  };

  useEffect(() => {
    if (!when) return;
    // Ready before anyone asks to leave (without it, the browser's own question is asked).
    loadLeaveDialog().catch(() => undefined);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    const unregister = unsavedWork.register(
      () =>
        new Promise<boolean>((resolve) => {
          answer.current = resolve;
          setAsking(true);
        }),
    );
    release.current = () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      unregister();
    };
    return () => {
      release.current();
      release.current = () => undefined;
      // Saved (or gone) while the question was open: nothing is left to lose.
      answer.current?.(true);
      answer.current = null;
      setAsking(false);
    };
  }, [when]);

  return (
    <>
      {/* Component tests render the routes in a plain MemoryRouter, where blocking is not available. */}
      {dataRouter && (
        <BlockingDialog
          when={when}
          title={title}
          message={message}
          goesOnTo={goesOnTo}
          viewChangesKeepIt={viewChangesKeepIt}
          onLeaving={() => release.current()}
        />
      )}
      <LeaveDialog
        open={asking}
        title={title}
        message={message}
        onStay={() => reply(false)}
        onLeave={() => reply(true)}
      />
    </>
  );
}
