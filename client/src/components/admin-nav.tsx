import Box from '@mui/material/Box';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { Route } from '@tc/domain/routes';

/** The sections of the admin area, in the order of the navigation. Add a section here. */
const ADMIN_SECTIONS = [
  { label: 'Students', to: Route.adminDashboard },
  { label: 'Timetable', to: Route.adminTimetable },
  { label: 'Assessments', to: Route.adminAssessments },
  { label: 'Activity', to: Route.adminActivity },
  { label: 'Admins', to: Route.adminAdmins },
] as const;

/** The admin area's navigation: one link per section, the current one marked. */
export function AdminNav() {
  const { pathname } = useLocation();
  const here = pathname.toLowerCase().replace(/\/+$/, '');
  return (
    <Box component="nav" aria-label="Admin sections" sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}>
      <Box
        component="ul"
        // On a phone the links wrap onto a second line: every section stays in sight
        // (a row that scrolls sideways hid the last ones, with nothing to say so).
        sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 0.5, m: 0, p: 0, listStyle: 'none' }}
      >
        {ADMIN_SECTIONS.map(({ label, to }) => {
          const current = here === to;
          return (
            <li key={to}>
              <Box
                component={RouterLink}
                to={to}
                aria-current={current ? 'page' : undefined}
                sx={{
                  display: 'inline-block',
                  px: { xs: 1.5, sm: 2 },
                  py: 1.25,
                  minHeight: 44,
                  fontWeight: 700,
                  textDecoration: 'none',
                  color: current ? 'primary.main' : 'text.secondary',
                  borderBottom: 3,
                  borderColor: current ? 'primary.main' : 'transparent',
                  '&:hover': { color: 'primary.main' },
                  '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
                }}
              >
                {label}
              </Box>
            </li>
          );
        })}
      </Box>
    </Box>
  );
}
