import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useContext, useEffect, useRef, useState } from 'react';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router-dom';
import { Route } from '@tc/domain/routes';
import { unsavedWork } from '../lib/unsaved-work.ts';

/** Where a session that has ended goes: unsaved work there could not be saved anyway. */
const LOGIN_ROUTES: readonly string[] = [Route.adminLogin, Route.studentLogin];

interface LeaveDialogProps {
  open: boolean;
  title: string;
  message: string;
  onStay: () => void;
  onLeave: () => void;
}

function LeaveDialog({ open, title, message, onStay, onLeave }: LeaveDialogProps) {
  return (
    <Dialog open={open} onClose={onStay} aria-labelledby="unsaved-title">
      <DialogTitle id="unsaved-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onStay} autoFocus>
          Stay
        </Button>
        <Button color="error" onClick={onLeave}>
          Leave
        </Button>
      </DialogActions>
    </Dialog>
  );
}

interface PromptProps {
  /** There is something to lose. */
  when: boolean;
  /** The question, "Leave without saving?" unless told. */
  title?: string;
  /** What leaving loses. */
  message: string;
}

function BlockingDialog({ when, title, message }: Required<PromptProps>) {
  // Any move to another page or view (another assessment's marks is a new query
  // string), but for the login a session that ended goes to.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when &&
      !LOGIN_ROUTES.includes(nextLocation.pathname) &&
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
export function UnsavedChangesPrompt({ when, title = 'Leave without saving?', message }: PromptProps) {
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
      {dataRouter && <BlockingDialog when={when} title={title} message={message} />}
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
