import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PRODUCT_NAME } from '@tc/domain/constants';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <Box
      component="footer"
      sx={{ mt: 'auto', py: 3, px: 2, textAlign: 'center', bgcolor: 'primary.dark', color: 'primary.contrastText' }}
    >
      <Typography variant="body2">
        © {year} {PRODUCT_NAME}. All rights reserved
      </Typography>
    </Box>
  );
}
