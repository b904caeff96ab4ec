import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useLocation } from 'react-router-dom';
import { LinkTo, Route } from '@tc/domain/routes';
import { AnimatedCanvas } from '../../components/animated-canvas.tsx';
import { LinkButton } from '../../components/link-button.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import type { ThankYouState } from '../../lib/navigation-state.ts';

/** The enrollment number the registration passed along, if the page was reached that way. */
function enrollmentIdOf(state: unknown): number | null {
  const id = (state as Partial<ThankYouState> | null)?.enrollmentId;
  return typeof id === 'number' ? id : null;
}

export default function ThankYouPage() {
  const enrollmentId = enrollmentIdOf(useLocation().state);
  return (
    <Box
      sx={{
        position: 'relative',
        overflow: 'hidden',
        flex: 1,
        display: 'grid',
        placeItems: 'center',
        px: 2,
        py: { xs: 4, sm: 8 },
      }}
    >
      <PageTitle title="Thank you" />
      <AnimatedCanvas variant="confetti" />
      <Card
        sx={{ position: 'relative', zIndex: 1, width: '100%', maxWidth: 560, p: { xs: 3, sm: 5 }, textAlign: 'center' }}
      >
        <CheckCircleOutlined aria-hidden="true" color="success" sx={{ fontSize: 64 }} />
        <Typography variant="h1" sx={{ mt: 1, mb: 2 }}>
          Thank You!!
        </Typography>
        {enrollmentId !== null && (
          <Typography sx={{ mb: 2, fontSize: '1.25rem', fontWeight: 800 }}>
            Your enrollment number is {enrollmentId}
          </Typography>
        )}
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          Your registration is complete. We have sent a confirmation e-mail to your registered e-mail address. You can
          now log in with your e-mail address or mobile number and the password you chose
          {enrollmentId !== null ? '; keep the enrollment number for any question to the centre.' : '.'}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center' }}>
          <LinkButton to={Route.studentLogin} size="large">
            Login
          </LinkButton>
          <LinkButton to={LinkTo.home} variant="outlined" size="large">
            Home
          </LinkButton>
        </Stack>
      </Card>
    </Box>
  );
}
