import HomeOutlined from '@mui/icons-material/HomeOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Route } from '@tc/domain/routes';
import { LinkButton } from '../../components/link-button.tsx';
import { PageTitle } from '../../components/page-title.tsx';

export default function NotFoundPage() {
  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: 8, textAlign: 'center' }}>
      <PageTitle title="Page not found" />
      <meta name="robots" content="noindex" />
      <Box>
        <Typography
          aria-hidden="true"
          sx={{ fontSize: { xs: '4rem', sm: '6rem' }, fontWeight: 800, color: 'primary.main', lineHeight: 1 }}
        >
          404
        </Typography>
        <Typography variant="h1" sx={{ mt: 1, mb: 1 }}>
          Page not found
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          The page you are looking for does not exist or has moved.
        </Typography>
        <LinkButton to={Route.home} size="large" startIcon={<HomeOutlined aria-hidden="true" />}>
          Home
        </LinkButton>
      </Box>
    </Box>
  );
}
