import LogoutIcon from '@mui/icons-material/Logout';
import Button from '@mui/material/Button';

/** The Logout button of both dashboards; disabled while the logout call runs. */
export function LogoutButton({ onClick, busy }: { onClick: () => void; busy: boolean }) {
  return (
    <Button variant="outlined" startIcon={<LogoutIcon />} onClick={onClick} disabled={busy} sx={{ flexShrink: 0 }}>
      Logout
    </Button>
  );
}
