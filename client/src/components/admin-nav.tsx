import Box from '@mui/material/Box';
import { useLayoutEffect, useRef } from 'react';
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
  // On a phone the links scroll sideways: the current one is brought into view.
  const list = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => {
    const current = list.current?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list.current || !current) return;
    const { clientWidth } = list.current;
    list.current.scrollLeft = current.offsetLeft - (clientWidth - current.offsetWidth) / 2;
  }, [here]);
  return (
    <Box component="nav" aria-label="Admin sections" sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}>
      <Box
        component="ul"
        ref={list}
        sx={{ position: 'relative', display: 'flex', gap: 0.5, m: 0, p: 0, listStyle: 'none', overflowX: 'auto' }}
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
                  px: 2,
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
