import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { BackButton } from './back-button.tsx';

interface FormCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  maxWidth?: number;
  back?: boolean;
}

/** The centred card every form sits in: one column, up to ~560 px wide (design.md). */
export function FormCard({ title, subtitle, children, maxWidth = 560, back = true }: FormCardProps) {
  return (
    <Box sx={{ width: '100%', maxWidth, mx: 'auto', px: { xs: 1.5, sm: 2 }, py: { xs: 2, sm: 4 } }}>
      <Stack spacing={1}>
        {back && <BackButton />}
        <Card sx={{ p: { xs: 2.5, sm: 4 } }}>
          <Typography variant="h1" component="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, mb: subtitle ? 1 : 3 }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {subtitle}
            </Typography>
          )}
          {children}
        </Card>
      </Stack>
    </Box>
  );
}
