import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** Shown while a screen's code arrives. */
export function RouteLoading() {
  return (
    <Box role="status" aria-label="Loading page" sx={{ display: 'grid', placeItems: 'center', flex: 1, py: 8 }}>
      <CircularProgress />
    </Box>
  );
}
