import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import InputAdornment from '@mui/material/InputAdornment';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { UiMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import type { AdminProfile } from '@tc/domain/student';
import { AdminNav } from '../../components/admin-nav.tsx';
import { LogoutButton } from '../../components/logout-button.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { call } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
import { adminSession } from '../../lib/session.ts';
import { useApi } from '../../lib/use-api.ts';
import { ExportButton } from './export-button.tsx';
import { StudentFilters, useStudentView } from './student-filters.tsx';

const SEARCH_DEBOUNCE_MS = 300;

// The data grid is most of this page's code: it loads beside the page, not before it,
// so the header, the search box and a redirect without a session come at once.
const StudentsGrid = lazy(() => import('./students-grid.tsx'));

export default function AdminDashboardPage() {
  const { token, call: callAsAdmin, signOut } = useApi('admin');
  const [admin, setAdmin] = useState<AdminProfile | null>(null);
  // The view (search, filters, sort) lives in the URL: a reload or a bookmark keeps it.
  const [view, setView] = useStudentView();
  const [search, setSearch] = useState(view.q);
  const query = view.q;
  const [loggingOut, setLoggingOut] = useState(false);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    void callAsAdmin('getAdminProfile', {}).then((result) => {
      if (cancelled || !result.ok || !result.data) return;
      setAdmin(result.data);
      // The header shows who is signed in.
      adminSession.rememberName(result.data.name || result.data.email);
    });
    return () => {
      cancelled = true;
    };
  }, [token, callAsAdmin]);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (search.trim() !== view.q) setView({ q: search.trim() });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search, view.q, setView]);

  if (!token) return <Navigate to={Route.adminLogin} replace />;

  const logout = async () => {
    setLoggingOut(true);
    const result = await call('logoutAdmin', {}, { token });
    setLoggingOut(false);
    if (result.ok || result.status === 401) {
      notify.success(UiMessage.loggedOut);
      signOut();
    } else {
      notify.error(UiMessage.errorLoggingOut);
    }
  };

  return (
    <Box sx={{ width: '100%', maxWidth: 1440, mx: 'auto', px: { xs: 1.5, sm: 3 }, py: { xs: 3, sm: 4 }, minWidth: 0 }}>
      <PageTitle title="Admin dashboard" />
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { xs: 'stretch', md: 'flex-start' }, mb: 3 }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h1" sx={{ fontSize: { xs: '1.5rem', sm: '2rem' } }}>
            All Registered Students - Enrollment Data
          </Typography>
          <Typography sx={{ mt: 1, overflowWrap: 'anywhere' }} color="text.secondary">
            {admin ? `Welcome, ${admin.name || admin.email}` : 'Loading user details...'}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1.5} sx={{ flexShrink: 0 }}>
          <LogoutButton onClick={() => void logout()} busy={loggingOut} />
        </Stack>
      </Stack>
      <AdminNav />
      <Card sx={{ p: { xs: 1.5, sm: 2.5 }, minWidth: 0 }}>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={1.5}
          useFlexGap
          sx={{ mb: 2, alignItems: { md: 'center' }, flexWrap: 'wrap' }}
        >
          <TextField
            label="Search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name, e-mail or mobile"
            size="small"
            sx={{ maxWidth: { sm: 320 } }}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon aria-hidden="true" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <StudentFilters view={view} onChange={setView} />
          {token && <ExportButton token={token} view={view} />}
        </Stack>
        <Suspense fallback={<Skeleton variant="rounded" height={320} role="status" aria-label="Loading students" />}>
          <StudentsGrid query={query} view={view} onSortChange={(sort) => setView({ sort })} />
        </Suspense>
      </Card>
    </Box>
  );
}
