import LogoutIcon from '@mui/icons-material/Logout';
import { InertButton } from './inert-button.tsx';

/** The Logout button of both dashboards; inert while the logout call runs. */
export function LogoutButton({ onClick, busy }: { onClick: () => void; busy: boolean }) {
  return (
    <InertButton
      variant="outlined"
      startIcon={<LogoutIcon />}
      onClick={onClick}
      unavailable={busy}
      sx={{ flexShrink: 0 }}
    >
      Logout
    </InertButton>
  );
}
