import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useContext, useEffect } from 'react';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router-dom';

function BlockingDialog({ when, message }: { when: boolean; message: string }) {
  // Any move to another page or view (another assessment's marks is a new query string).
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const open = blocker.state === 'blocked';
  return (
    <Dialog open={open} onClose={() => blocker.reset?.()} aria-labelledby="unsaved-title">
      <DialogTitle id="unsaved-title">Leave without saving?</DialogTitle>
      <DialogContent>
        <DialogContentText>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => blocker.reset?.()} autoFocus>
          Stay
        </Button>
        <Button color="error" onClick={() => blocker.proceed?.()}>
          Leave
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Keeps unsaved work from an accidental navigation: links inside the site ask
 * first (react-router's useBlocker, in the app's data router), and closing or
 * reloading the tab gets the browser's own question (beforeunload).
 */
export function UnsavedChangesPrompt({ when, message }: { when: boolean; message: string }) {
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);
  // Component tests render the routes in a plain MemoryRouter, where blocking is not available.
  return dataRouter ? <BlockingDialog when={when} message={message} /> : null;
}
