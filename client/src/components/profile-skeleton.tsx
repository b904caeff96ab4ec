import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';

/**
 * Grey lines in the shape of what is coming (rows of a label and a value), while
 * a page waits: the layout does not jump when the data arrives. Screen readers
 * hear `label` once.
 */
export function ProfileSkeleton({ rows, label }: { rows: number; label: string }) {
  return (
    <Box role="status" aria-label={label}>
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
