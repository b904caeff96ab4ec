import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';

/**
 * A data grid's overlay while it loads, for the eye only: inside the grid anything but rows
 * breaks the grid's structure for screen readers (MUI X's own bar is also a progress bar with
 * no name), so the grid's page says "Loading students ..." in a status outside it. Its words
 * differ from the seed's "Loading ..." here, so that the seed's text is on the page once.
 */
export function GridLoadingOverlay() {
  return (
    <Box aria-hidden="true" sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <LinearProgress />
      <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', bgcolor: 'rgba(255,255,255,0.6)' }}>
        <Typography>Loading ...</Typography>
      </Box>
    </Box>
  );
}
