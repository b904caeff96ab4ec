import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { logOut } from '../lib/log-out.ts';
import { unsavedWork } from '../lib/unsaved-work.ts';
import { useApi } from '../lib/use-api.ts';
import { AdminNav } from './admin-nav.tsx';
import { LogoutButton } from './logout-button.tsx';
import { PageFrame, type PageFrameProps } from './page-frame.tsx';

type AdminPageProps = Omit<PageFrameProps, 'maxWidth'>;

/** Every admin section's width: the heading, Logout and the sections' links stay put between them. */
const ADMIN_WIDTH = 1440;

/** The frame every admin section shares: width, heading, Logout, and the sections' navigation. */
export function AdminPage({ title, heading, subtitle, actions, children }: AdminPageProps) {
  const { signOut } = useApi('admin');
  const [loggingOut, setLoggingOut] = useState(false);

  const logout = async () => {
    if (!(await unsavedWork.mayLeave())) return;
    setLoggingOut(true);
    const done = await logOut('admin');
    setLoggingOut(false);
    if (done) signOut();
  };

  return (
    <PageFrame
      variant="admin"
      title={title}
      heading={heading}
      subtitle={subtitle}
      maxWidth={ADMIN_WIDTH}
      actions={
        // Each button on one line; on the narrowest phones Logout goes under the page's own action.
        <Stack
          direction="row"
          spacing={1.5}
          useFlexGap
          sx={{ flexShrink: 0, flexWrap: 'wrap', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}
        >
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
