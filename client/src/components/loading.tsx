import Box from '@mui/material/Box';
import { keyframes } from '@mui/material/styles';

const spin = keyframes`to { transform: rotate(360deg); }`;

/** Shown while a screen's code arrives. */
export function RouteLoading() {
  return (
    <Box role="status" aria-label="Loading page" sx={{ display: 'grid', placeItems: 'center', flex: 1, py: 8 }}>
      <Box
        sx={{
          width: 40,
          height: 40,
          borderRadius: '50%',
          border: 4,
          borderColor: 'divider',
          borderTopColor: 'primary.main',
          animation: `${spin} 0.8s linear infinite`,
          '@media (prefers-reduced-motion: reduce)': { animationDuration: '3s' },
        }}
      />
    </Box>
  );
}
