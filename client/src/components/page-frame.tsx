import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { PageTitle } from './page-title.tsx';

export interface PageFrameProps {
  /** The browser tab's title. */
  title: string;
  heading: string;
  /** A line under the heading (a dashboard's welcome). */
  subtitle?: ReactNode;
  /** Buttons and links beside the heading. */
  actions?: ReactNode;
  maxWidth: number;
  children: ReactNode;
}

/**
 * The frame of a signed-in page: its width, the tab title, the heading with its
 * actions beside it (under it on phones), then the page. The admin sections are
 * wider and denser than a student's pages.
 */
export function PageFrame({
  title,
  heading,
  subtitle,
  actions,
  maxWidth,
  children,
  variant,
}: PageFrameProps & { variant: 'admin' | 'student' }) {
  const admin = variant === 'admin';
  const wide = admin ? 'md' : 'sm';
  return (
    <Box
      sx={{
        width: '100%',
        maxWidth,
        mx: 'auto',
        px: { xs: 1.5, sm: admin ? 3 : 2 },
        py: { xs: 3, sm: admin ? 4 : 5 },
        minWidth: 0,
      }}
    >
      <PageTitle title={title} />
      <Stack
        direction={{ xs: 'column', [wide]: 'row' }}
        spacing={2}
        sx={{
          justifyContent: 'space-between',
          alignItems: { xs: 'stretch', [wide]: admin ? 'flex-start' : 'center' },
          mb: 3,
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h1" sx={admin ? { fontSize: { xs: '1.5rem', sm: '2rem' } } : undefined}>
            {heading}
          </Typography>
          {subtitle && (
            <Typography
              sx={{ mt: 1, overflowWrap: 'anywhere', ...(admin ? {} : { fontSize: '1.15rem' }) }}
              color={admin ? 'text.secondary' : undefined}
            >
              {subtitle}
            </Typography>
          )}
        </Box>
        {actions}
      </Stack>
      {children}
    </Box>
  );
}
