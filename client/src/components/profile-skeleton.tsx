import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';

/**
 * "Loading..." (the seed spec's text) over grey lines in the shape of what is
 * coming (rows of a label and a value), while a page waits: the layout does not
 * jump when the data arrives. Screen readers hear the text once.
 */
export function ProfileSkeleton({ rows }: { rows: number }) {
  return (
    <Box>
      <Typography role="status" color="text.secondary" sx={{ mb: 1 }}>
        Loading...
      </Typography>
      {Array.from({ length: rows }, (_, row) => (
        <Box
          key={row}
          aria-hidden="true"
          sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' }, columnGap: 3, py: 1.25 }}
        >
          <Skeleton variant="text" width="70%" />
          <Skeleton variant="text" width={row % 2 ? '45%' : '60%'} />
        </Box>
      ))}
    </Box>
  );
}
