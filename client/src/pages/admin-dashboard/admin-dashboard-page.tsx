import SearchIcon from '@mui/icons-material/Search';
import Card from '@mui/material/Card';
import InputAdornment from '@mui/material/InputAdornment';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { SEARCH_MAX_LENGTH } from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import type { AdminProfile } from '@tc/domain/student';
import { AdminPage } from '../../components/admin-page.tsx';
import { FiltersRow } from '../../components/filters-row.tsx';
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
  const { token, call: callAsAdmin } = useApi('admin');
  const [admin, setAdmin] = useState<AdminProfile | null>(null);
  const [profileFailed, setProfileFailed] = useState(false);
  // The view (search, filters, sort, page) lives in the URL: a reload or a bookmark keeps it.
  const [view, setView] = useStudentView();
  const [search, setSearch] = useState(view.q);
  const query = view.q;
  /** The search this page last wrote to the address: any other there came from outside (a link). */
  const [written, setWritten] = useState(view.q);
  const [addressSearch, setAddressSearch] = useState(view.q);
  if (addressSearch !== view.q) {
    setAddressSearch(view.q);
    // The "Students" link (no search), Back: the box shows what the address now searches.
    if (view.q !== written) {
      setSearch(view.q);
      setWritten(view.q);
    }
  }
  const searchRef = useRef<HTMLInputElement>(null);
  const focusSearch = useCallback(() => searchRef.current?.focus(), []);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    void callAsAdmin('getAdminProfile', {}).then((result) => {
      if (cancelled || result.sessionEnded) return;
      if (!result.ok || !result.data) {
        // Not "Loading user details..." for ever: the welcome line goes, and the toast says why.
        setProfileFailed(true);
        notify.error(UiMessage.errorLoadingData);
        return;
      }
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
      if (search.trim() === view.q) return;
      setWritten(search.trim());
      setView({ q: search.trim() });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search, view.q, setView]);

  if (!token) return <Navigate to={Route.adminLogin} replace />;

  return (
    <AdminPage
      title="Admin dashboard"
      heading="All Registered Students - Enrollment Data"
      subtitle={admin ? `Welcome, ${admin.name || admin.email}` : profileFailed ? undefined : 'Loading user details...'}
    >
      <Card sx={{ p: { xs: 1.5, sm: 2.5 }, minWidth: 0 }}>
        <FiltersRow>
          <TextField
            label="Search"
            type="search"
            inputRef={searchRef}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name, e-mail or mobile"
            size="small"
            sx={{ maxWidth: { sm: 320 } }}
            slotProps={{
              // The server's limit (a longer search is refused).
              htmlInput: { maxLength: SEARCH_MAX_LENGTH },
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
          {/* What the box says, also in the pause before the table searches it. */}
          <ExportButton view={{ ...view, q: search.trim() }} />
        </FiltersRow>
        <Suspense fallback={<Skeleton variant="rounded" height={320} role="status" aria-label="Loading students" />}>
          <StudentsGrid query={query} view={view} onViewChange={setView} focusAfterRowGone={focusSearch} />
        </Suspense>
      </Card>
    </AdminPage>
  );
}
