import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Toolbar from '@mui/material/Toolbar';
import { Link as RouterLink } from 'react-router-dom';
import { PRODUCT_NAME } from '@tc/domain/constants';
import { Logo } from './logo.tsx';

export function Header() {
  return (
    <AppBar
      position="static"
      color="inherit"
      elevation={0}
      sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
    >
      <Toolbar sx={{ gap: { xs: 1, sm: 2 }, px: { xs: 1.5, sm: 3 }, minHeight: { xs: 64, sm: 72 } }}>
        <Box
          component={RouterLink}
          to="/Home"
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
        <Button
          component={RouterLink}
          to="/Registeruser"
          variant="contained"
          color="secondary"
          sx={{ flexShrink: 0, px: { xs: 1.5, sm: 2.5 } }}
        >
          Enroll Now
        </Button>
      </Toolbar>
    </AppBar>
  );
}
