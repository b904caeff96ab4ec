import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { UiMessage } from '@tc/domain/messages';
import { call } from '../lib/api.ts';
import { notify } from '../lib/notify.ts';
import { useApi } from '../lib/use-api.ts';
import { AdminNav } from './admin-nav.tsx';
import { LogoutButton } from './logout-button.tsx';
import { PageFrame, type PageFrameProps } from './page-frame.tsx';

type AdminPageProps = Omit<PageFrameProps, 'maxWidth'> & { maxWidth?: number };

/** The frame every admin section shares: width, heading, Logout, and the sections' navigation. */
export function AdminPage({ title, heading, subtitle, actions, maxWidth = 1440, children }: AdminPageProps) {
  const { token, signOut } = useApi('admin');
  const [loggingOut, setLoggingOut] = useState(false);

  const logout = async () => {
    setLoggingOut(true);
    const result = await call('logoutAdmin', {}, { token });
    setLoggingOut(false);
    // A 401 means the session had ended on the server already: logged out either way.
    if (result.ok || result.status === 401) {
      notify.success(UiMessage.loggedOut);
      signOut();
    } else {
      notify.error(UiMessage.errorLoggingOut);
    }
  };

  return (
    <PageFrame
      variant="admin"
      title={title}
      heading={heading}
      subtitle={subtitle}
      maxWidth={maxWidth}
      actions={
        <Stack direction="row" spacing={1.5} sx={{ flexShrink: 0 }}>
          {actions}
          <LogoutButton onClick={() => void logout()} busy={loggingOut} />
        </Stack>
      }
    >
      <AdminNav />
      {children}
    </PageFrame>
  );
}
