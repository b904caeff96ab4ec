import DownloadIcon from '@mui/icons-material/Download';
import { useState } from 'react';
import { EXPORT_PATH } from '@tc/domain/admin-tools';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { UiMessage } from '@tc/domain/messages';
import { notify } from '../../lib/notify.ts';
import { useApi } from '../../lib/use-api.ts';
import { SELECTION_KEYS, type StudentView } from './student-filters.tsx';
import { InertButton } from '../../components/inert-button.tsx';

/**
 * "Export CSV": the current view, every page. A download link cannot carry the
 * admin's bearer token, so the file is fetched with it and saved from memory
 * (docs/decisions/0011-activity-log.md, "Export").
 */
export function ExportButton({ view }: { view: StudentView }) {
  const { token, signOut } = useApi('admin');
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const query = new URLSearchParams();
      for (const key of SELECTION_KEYS) if (view[key]) query.set(key, view[key]);
      const response = await fetch(`${EXPORT_PATH}?${query.toString()}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      // The session ended (401), or is a student's (403: the server's text says so).
      if (response.status === 401 || response.status === 403) {
        const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
        const said = response.status === 403 && typeof body?.error === 'string' ? body.error : null;
        return signOut(said ?? UiMessage.sessionExpired);
      }
      if (!response.ok) {
        // A refusal says why (other exports under way, a search too long); a failure does not.
        const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
        const said = response.status < 500 && typeof body?.error === 'string' ? body.error : null;
        notify.error(said ?? AdminToolsMessage.exportFailed);
        return;
      }
      const blob = await response.blob();
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'students.csv';
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      notify.success(AdminToolsMessage.exportSaved(name));
    } catch {
      notify.error(AdminToolsMessage.exportFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <InertButton
      variant="outlined"
      startIcon={<DownloadIcon aria-hidden="true" />}
      onClick={() => void download()}
      unavailable={busy}
    >
      {busy ? 'Exporting...' : 'Export CSV'}
    </InertButton>
  );
}
