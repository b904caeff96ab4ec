import Stack from '@mui/material/Stack';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { UiMessage } from '@tc/domain/messages';
import { LinkTo, Route } from '@tc/domain/routes';
import { FormCard } from '../../components/form-card.tsx';
import { LinkButton } from '../../components/link-button.tsx';
import { LoginForm } from '../../components/login-form.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { call } from '../../lib/api.ts';
import { studentLandingOf } from '../../lib/navigation-state.ts';
import { notify } from '../../lib/notify.ts';
import { studentSession } from '../../lib/session.ts';

export default function StudentLoginPage() {
  const navigate = useNavigate();
  // A student page that sent a visitor here without a session (the progress page of a marks mail) is where they go back.
  const landing = studentLandingOf(useLocation().state);

  // Checked after the first render, which must match the pre-rendered page.
  useEffect(() => {
    if (studentSession.token()) void navigate(landing, { replace: true });
  }, [navigate, landing]);

  return (
    <FormCard title="NICE TO SEE YOU" subtitle="Log in to see your profile, progress and study schedule.">
      <PageTitle title="Student login" />
      <LoginForm
        idField={{ name: 'identifier', label: 'Email ID or Mobile Number' }}
        precheck={(identifier, password) => {
          if (!identifier.trim()) return { message: UiMessage.enterIdentifier, field: 'identifier' };
          if (!password.trim()) return { message: UiMessage.enterPassword, field: 'password' };
          return null;
        }}
        attempt={async (identifier, password, altcha) => {
          const result = await call('loginStudent', {
            identifier: identifier.trim(),
            password: password.trim(),
            ...(altcha ? { altcha } : {}),
          });
          return { token: (result.ok && result.data?.tokenStudent) || null, result };
        }}
        onLoggedIn={(token) => {
          studentSession.save(token);
          notify.success(UiMessage.loginSuccessful);
          void navigate(landing, { replace: true });
        }}
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between' }}>
          <LinkButton to={Route.forgotPassword} variant="text">
            Forgot Password
          </LinkButton>
          <LinkButton to={LinkTo.register} variant="text">
            Register now
          </LinkButton>
        </Stack>
      </LoginForm>
    </FormCard>
  );
}
