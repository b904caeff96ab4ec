import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Button from '@mui/material/Button';
import { useNavigate } from 'react-router-dom';
import { Route } from '@tc/domain/routes';

/** Goes one step back in history; home when there is none. */
export function BackButton() {
  const navigate = useNavigate();
  const goBack = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx;
    if (typeof index === 'number' && index > 0) void navigate(-1);
    else void navigate(Route.home);
  };
  return (
    <Button startIcon={<ArrowBackIcon />} onClick={goBack} sx={{ alignSelf: 'flex-start', px: 1.5 }}>
      Back
    </Button>
  );
}
