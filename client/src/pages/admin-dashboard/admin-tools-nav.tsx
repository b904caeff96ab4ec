import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router-dom';
import { Route } from '@tc/domain/routes';

/** Links between the admin pages (product.md §9). */
export function AdminToolsNav() {
  const links = [
    [Route.adminDashboard, 'Students'],
    [Route.adminActivity, 'Activity'],
    [Route.adminAdmins, 'Admins'],
  ] as const;
  return (
    <Stack component="nav" aria-label="Admin pages" direction="row" spacing={1} sx={{ mb: 2 }}>
      {links.map(([to, label]) => (
        <Button key={to} component={RouterLink} to={to} variant="text">
          {label}
        </Button>
      ))}
    </Stack>
  );
}
