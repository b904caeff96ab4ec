import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { Route } from '@tc/domain/routes';
import { FormCard } from '../../components/form-card.tsx';
import { LoginForm } from '../../components/login-form.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { call } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
import { adminSession } from '../../lib/session.ts';

export default function AdminLoginPage() {
  const navigate = useNavigate();

  // Checked after the first render, which must match the pre-rendered page.
  useEffect(() => {
    if (adminSession.token()) void navigate(Route.adminDashboard, { replace: true });
  }, [navigate]);

  return (
    <FormCard title="Manage Student Records" subtitle="Administrators log in here to view and update student details.">
      <PageTitle title="Admin login" />
      <LoginForm
        idField={{ name: 'email', label: 'Email', type: 'email' }}
        // No client validation (the seed spec): the server answers every case, an
        // empty field in the form's own words ("Password is required").
        attempt={async (email, password, altcha) => {
          const result = await call('loginAdmin', { email, password, ...(altcha ? { altcha } : {}) });
          const token = result.ok && result.data?.success ? (result.data.token ?? null) : null;
          return { token, result };
        }}
        onLoggedIn={(token) => {
          adminSession.save(token);
          // An error toast of a mistyped attempt no longer applies.
          notify.dismiss();
          void navigate(Route.adminDashboard, { replace: true });
        }}
      />
    </FormCard>
  );
}
