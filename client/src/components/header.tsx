import Box from '@mui/material/Box';
import { useHref, useLinkClickHandler } from 'react-router-dom';
import { PRODUCT_NAME } from '@tc/domain/constants';
import { LinkButton } from './link-button.tsx';
import { Logo } from './logo.tsx';

export function Header() {
  const homeHref = useHref('/Home');
  const goHome = useLinkClickHandler('/Home');
  return (
    <Box
      component="header"
      sx={{
        bgcolor: 'background.paper',
        borderBottom: 1,
        borderColor: 'divider',
        px: { xs: 1.5, sm: 3 },
        minHeight: { xs: 64, sm: 72 },
        display: 'flex',
        alignItems: 'center',
        gap: { xs: 1, sm: 2 },
      }}
    >
      <Box
        component="a"
        href={homeHref}
        onClick={goHome}
        aria-label={`${PRODUCT_NAME} home`}
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: { xs: 1, sm: 1.5 },
          color: 'primary.main',
          textDecoration: 'none',
          borderRadius: 2,
          minWidth: 0,
          flex: 1,
          py: 1,
        }}
      >
        <Box sx={{ flexShrink: 0, display: 'flex' }}>
          <Logo size={40} />
        </Box>
        <Box
          component="span"
          sx={{
            fontWeight: 800,
            fontSize: { xs: '0.95rem', sm: '1.15rem', md: '1.3rem' },
            lineHeight: 1.2,
            minWidth: 0,
          }}
        >
          {PRODUCT_NAME}
        </Box>
      </Box>
      <LinkButton to="/Registeruser" color="secondary">
        Enroll Now
      </LinkButton>
    </Box>
  );
}
