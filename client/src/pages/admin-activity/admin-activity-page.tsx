import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import MenuItem from '@mui/material/MenuItem';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { ACTIVITY_KINDS } from '@tc/domain/admin-tools';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import type { ResponseOf } from '@tc/domain/api/contract';
import { Route } from '@tc/domain/routes';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { useApi } from '../../lib/use-api.ts';
import { useViewInAddress } from '../../lib/use-view-in-address.ts';
import { ActivityList, KIND_LABELS, type ActivityEntry } from '../../components/activity-list.tsx';
import { AdminPage } from '../../components/admin-page.tsx';
import { DateField, UNFINISHED_DATE } from '../../components/date-field.tsx';
import { FiltersRow } from '../../components/filters-row.tsx';
import { LoadStatus } from '../../components/load-status.tsx';

const PAGE_SIZE = 25;

/** The view's filters in the address, beside its page. */
const FILTERS = ['admin', 'kind', 'from', 'to'] as const;

/** A view's filters, without its page: the entries they find are counted once for every page. */
const filtersKey = (view: URLSearchParams) => JSON.stringify(FILTERS.map((name) => view.get(name) ?? ''));

/** The activity log: filters by admin, kind and dates, paged on the server. */
export default function AdminActivityPage() {
  const { token, call: callAsAdmin } = useApi('admin');
  const [params, changeView] = useViewInAddress();
  const filters = {
    admin: params.get('admin') ?? '',
    kind: params.get('kind') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
  const page = Number(params.get('page') ?? 0) || 0;
  /** The answer for one view (the query string): the entries, or 'failed'. */
  const [loaded, setLoaded] = useState<{ key: string; entries: ActivityEntry[] | 'failed' } | null>(null);
  /** How many entries the filters (the view but its page) found, as last answered. */
  const [found, setFound] = useState<{ filters: string; total: number } | null>(null);
  const results = useRef<HTMLDivElement>(null);
  const [admins, setAdmins] = useState<ResponseOf<'listActivityAdmins'>>([]);
  const key = params.toString();
  /** Bumped by "Try again" after a failed load. */
  const [retries, setRetries] = useState(0);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    // Only the filter's choices (removed administrators among them): without them the filter offers "All admins".
    void callAsAdmin('listActivityAdmins', {}).then((result) => {
      if (!cancelled && result.ok && result.data) setAdmins(result.data);
    });
    return () => {
      cancelled = true;
    };
    // "Try again" asks for them again too: a failure of theirs leaves only "All admins".
  }, [token, callAsAdmin, retries]);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    const search = new URLSearchParams(key);
    const input = {
      skip: (Number(search.get('page') ?? 0) || 0) * PAGE_SIZE,
      limit: PAGE_SIZE,
      ...Object.fromEntries(FILTERS.filter((k) => search.get(k)).map((k) => [k, search.get(k)])),
    };
    void callAsAdmin('listActivity', input as never).then((result) => {
      if (cancelled) return;
      if (result.ok && result.data) {
        setLoaded({ key, entries: result.data });
        setFound({
          filters: filtersKey(search),
          total: Number(result.headers?.get('X-Total-Count') ?? result.data.length),
        });
      } else if (!result.sessionEnded) {
        setLoaded({ key, entries: 'failed' });
        notify.error(errorText(result, AdminToolsMessage.activityNotLoaded));
      }
    });
    return () => {
      cancelled = true;
    };
  }, [token, callAsAdmin, key, retries]);

  if (!token) return <Navigate to={Route.adminLogin} replace />;
  // Loading while the view on screen has no answer yet.
  const entries = loaded?.key === key ? loaded.entries : null;
  // The pages of these filters: not another filter's count while its own has not come.
  const total = found?.filters === filtersKey(params) ? found.total : null;

  // A new filter starts again from the first page.
  const set = (name: string, value: string) => changeView({ [name]: value, ...(name === 'page' ? {} : { page: '' }) });

  return (
    <AdminPage title="Activity" heading="Activity">
      {/* Lines of text read best at this width; the frame keeps every section's width. */}
      <Card sx={{ p: { xs: 1.5, sm: 2.5 }, minWidth: 0, maxWidth: 1100 }}>
        <FiltersRow grow>
          <TextField
            select
            size="small"
            label="Admin"
            value={filters.admin}
            onChange={(e) => set('admin', e.target.value)}
          >
            <MenuItem value="">All admins</MenuItem>
            {admins.map((a) => (
              <MenuItem key={a.objectId} value={a.objectId}>
                {a.current ? a.email : `${a.email} (removed)`}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label="Kind"
            value={filters.kind}
            onChange={(e) => set('kind', e.target.value)}
          >
            <MenuItem value="">Every kind</MenuItem>
            {ACTIVITY_KINDS.map((kind) => (
              <MenuItem key={kind} value={kind}>
                {KIND_LABELS[kind] ?? kind}
              </MenuItem>
            ))}
          </TextField>
          {/* A date typed halfway changes nothing until it is one. */}
          <DateField
            size="small"
            label="From"
            name="from"
            value={filters.from}
            onChange={(date) => date !== UNFINISHED_DATE && set('from', date)}
          />
          <DateField
            size="small"
            label="To"
            name="to"
            value={filters.to}
            onChange={(date) => date !== UNFINISHED_DATE && set('to', date)}
          />
        </FiltersRow>
        {Array.isArray(entries) ? (
          <Box ref={results} sx={{ outline: 'none' }}>
            <ActivityList entries={entries} showTarget />
          </Box>
        ) : (
          <LoadStatus
            failed={entries === 'failed'}
            failedText={AdminToolsMessage.activityNotLoaded}
            onRetry={() => {
              setLoaded(null);
              setRetries((n) => n + 1);
            }}
            loadingText="Loading ..."
            focusAfterLoad={() => results.current}
          />
        )}
        {total !== null && (
          <TablePagination
            component="div"
            count={total}
            page={Math.min(page, Math.max(0, Math.ceil(total / PAGE_SIZE) - 1))}
            onPageChange={(_e, next) => set('page', next ? String(next) : '')}
            rowsPerPage={PAGE_SIZE}
            rowsPerPageOptions={[PAGE_SIZE]}
          />
        )}
      </Card>
    </AdminPage>
  );
}
