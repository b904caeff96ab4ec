import { lazy, Suspense, useContext, useEffect, useRef, useState, type ComponentType } from 'react';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router-dom';
import { Route } from '@tc/domain/routes';
import { unsavedWork } from '../lib/unsaved-work.ts';
import type { LeaveDialogProps } from './leave-dialog.tsx';

/** Where a session that has ended goes: unsaved work there could not be saved anyway. */
const LOGIN_ROUTES: readonly string[] = [Route.adminLogin, Route.studentLogin];

interface PromptProps {
  /** There is something to lose. */
  when: boolean;
  /** The question, "Leave without saving?" unless told. */
  title?: string;
  /** What leaving loses. */
  message: string;
  /** Pages the work's own completion goes to, never asked about (the registration's /thank-you). */
  goesOnTo?: readonly string[];
}

const loadLeaveDialog = () => import('./leave-dialog.tsx');

/** The browser's own question, where the dialog's code could not be fetched (the network gone). */
function BrowserQuestion({ open, title, message, onStay, onLeave }: LeaveDialogProps) {
  useEffect(() => {
    if (!open) return;
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

function BlockingDialog({ when, title, message, goesOnTo }: Required<PromptProps>) {
  // Any move to another page or view (another assessment's marks is a new query
  // string), but for the login a session that ended goes to and where the work goes on to.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when &&
      !LOGIN_ROUTES.includes(nextLocation.pathname) &&
      !goesOnTo.includes(nextLocation.pathname) &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  return (
    <LeaveDialog
      open={blocker.state === 'blocked'}
      title={title}
      message={message}
      onStay={() => blocker.reset?.()}
      onLeave={() => blocker.proceed?.()}
    />
  );
}

/**
 * Keeps unsaved work from an accidental navigation: links inside the site ask
 * first (react-router's useBlocker, in the app's data router), logging out asks
 * first (unsavedWork), and closing or reloading the tab gets the browser's own
 * question (beforeunload).
 */
export function UnsavedChangesPrompt({ when, title = 'Leave without saving?', message, goesOnTo = [] }: PromptProps) {
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  const [asking, setAsking] = useState(false);
  const answer = useRef<((leave: boolean) => void) | null>(null);

  const reply = (leave: boolean) => {
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
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      unregister();
      // Saved (or gone) while the question was open: nothing is left to lose.
      answer.current?.(true);
      answer.current = null;
      setAsking(false);
    };
  }, [when]);

  return (
    <>
      {/* Component tests render the routes in a plain MemoryRouter, where blocking is not available. */}
      {dataRouter && <BlockingDialog when={when} title={title} message={message} goesOnTo={goesOnTo} />}
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
