import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Component, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

/**
 * A page whose code could not load (a new release replaced it while the tab was
 * open, or the network dropped) shows a way out instead of a blank screen.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false });
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Stack role="alert" spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 8, px: 2 }}>
        <Typography variant="h5" component="h1">
          This page could not be loaded
        </Typography>
        <Typography>Please check your connection and try again.</Typography>
        {/* A plain button: this frame is on every page's first load, kept light. */}
        <Box
          component="button"
          type="button"
          onClick={() => window.location.reload()}
          sx={{
            font: 'inherit',
            fontWeight: 700,
            cursor: 'pointer',
            border: 0,
            borderRadius: 2,
            px: 3,
            py: 1.25,
            bgcolor: 'primary.main',
            color: 'primary.contrastText',
          }}
        >
          Reload
        </Box>
      </Stack>
    );
  }
}
