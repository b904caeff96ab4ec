import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { Navigate } from 'react-router-dom';
import type { ResponseOf } from '@tc/domain/api/contract';
import { Route } from '@tc/domain/routes';
import { PasswordField } from '../../components/password-field.tsx';
import { call } from '../../lib/api.ts';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { adminSession } from '../../lib/session.ts';
import { AdminPage } from '../../components/admin-page.tsx';

/** Administrators: list, invite, remove rights, change one's own password. */
export default function AdminAdminsPage() {
  const [token, setToken] = useState(adminSession.token());
  const [admins, setAdmins] = useState<ResponseOf<'listAdmins'>>([]);
  const [invite, setInvite] = useState({ email: '', name: '' });
  const [passwords, setPasswords] = useState({ currentPassword: '', newPassword: '' });

  const [reloads, setReloads] = useState(0);
  const load = () => setReloads((n) => n + 1);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    void call('listAdmins', {}, { token }).then((result) => {
      if (cancelled) return;
      if (result.ok && result.data) setAdmins(result.data);
      else notify.error(errorText(result, 'Could not load the administrators'));
    });
    return () => {
      cancelled = true;
    };
  }, [token, reloads]);

  if (!token) return <Navigate to={Route.adminLogin} replace />;

  const sendInvite = async (event: FormEvent) => {
    event.preventDefault();
    const result = await call('inviteAdmin', invite, { token });
    if (result.ok) {
      notify.success(`Invitation sent to ${invite.email}`);
      setInvite({ email: '', name: '' });
    } else notify.error(errorText(result, 'The invitation failed'));
  };

  const remove = async (objectId: string, email: string) => {
    if (!window.confirm(`Remove the administrator rights of ${email}?`)) return;
    const result = await call('removeAdmin', { objectId }, { token });
    if (result.ok) {
      notify.success('Administrator rights removed');
      load();
    } else notify.error(errorText(result, 'Removal failed'));
  };

  const changePassword = async (event: FormEvent) => {
    event.preventDefault();
    const result = await call('changeAdminPassword', passwords, { token });
    if (result.ok && result.data) {
      adminSession.save(result.data.token);
      setToken(result.data.token);
      setPasswords({ currentPassword: '', newPassword: '' });
      notify.success('Password changed; your other sessions have ended');
    } else notify.error(errorText(result, 'The password could not be changed'));
  };

  return (
    <AdminPage title="Administrators" heading="Administrators" maxWidth={900}>
      <Stack spacing={3}>
        <Card sx={{ p: { xs: 1.5, sm: 2.5 } }}>
          <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
            Administrators
          </Typography>
          <List aria-label="Administrators">
            {admins.map((admin) => (
              <ListItem
                key={admin.objectId}
                divider
                secondaryAction={
                  admin.self ? (
                    <Typography color="text.secondary">You</Typography>
                  ) : (
                    <Button
                      color="error"
                      onClick={() => void remove(admin.objectId, admin.email)}
                      disabled={admins.length <= 1}
                    >
                      Remove
                    </Button>
                  )
                }
              >
                <ListItemText primary={admin.name} secondary={admin.email} sx={{ overflowWrap: 'anywhere', pr: 10 }} />
              </ListItem>
            ))}
          </List>
        </Card>
        <Card component="form" onSubmit={(event) => void sendInvite(event)} sx={{ p: { xs: 1.5, sm: 2.5 } }}>
          <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
            Invite an administrator
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ '& .MuiTextField-root': { flex: 1 } }}>
            <TextField
              label="Name"
              value={invite.name}
              onChange={(e) => setInvite({ ...invite, name: e.target.value })}
              required
            />
            <TextField
              label="Email"
              type="email"
              value={invite.email}
              onChange={(e) => setInvite({ ...invite, email: e.target.value })}
              required
              sx={{ flex: 1 }}
            />
            <Button type="submit" variant="contained">
              Send invitation
            </Button>
          </Stack>
        </Card>
        <Card component="form" onSubmit={(event) => void changePassword(event)} sx={{ p: { xs: 1.5, sm: 2.5 } }}>
          <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
            Change your password
          </Typography>
          <Stack spacing={1.5} sx={{ maxWidth: 420 }}>
            <PasswordField
              label="Current password"
              value={passwords.currentPassword}
              onChange={(e) => setPasswords({ ...passwords, currentPassword: e.target.value })}
              autoComplete="current-password"
            />
            <PasswordField
              label="New password"
              value={passwords.newPassword}
              onChange={(e) => setPasswords({ ...passwords, newPassword: e.target.value })}
              autoComplete="new-password"
            />
            <Button type="submit" variant="contained" sx={{ alignSelf: 'flex-start' }}>
              Change password
            </Button>
          </Stack>
        </Card>
      </Stack>
    </AdminPage>
  );
}
