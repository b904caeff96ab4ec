import Card from '@mui/material/Card';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate } from 'react-router-dom';
import type { ResponseOf } from '@tc/domain/api/contract';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { RegistrationMessage } from '@tc/domain/messages';
import { adminNameProblem } from '@tc/domain/admin-tools';
import { isValidEmail, normalizeEmail, normalizeFullname } from '@tc/domain/registration';
import { Route } from '@tc/domain/routes';
import { ChangePasswordSection } from '../../components/change-password-section.tsx';
import { InertButton } from '../../components/inert-button.tsx';
import { LoadStatus } from '../../components/load-status.tsx';
import { useCentreZone } from '../../lib/centre-zone.ts';
import { dateTimeIn } from '../../lib/date-time.ts';
import { errorField, errorText } from '../../lib/errors.ts';
import { focusAfterDialog } from '../../lib/focus-field.ts';
import { useFormProblem } from '../../lib/use-form-problem.ts';
import { notify } from '../../lib/notify.ts';
import { useApi } from '../../lib/use-api.ts';
import { AdminPage } from '../../components/admin-page.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormMessage } from '../../components/form-message.tsx';

type Admin = ResponseOf<'listAdmins'>[number];

const INVITE_FIELDS = ['name', 'email'] as const;

/** What a row says under the name: the address, and an invitation's state. */
function rowDetail(admin: Admin, zone: string): string {
  if (admin.blocked) return `${admin.email} · invited; the code was mistyped too often and works no more`;
  if (admin.invitedUntil) {
    return `${admin.email} · invited, not yet accepted (the code works until ${dateTimeIn(admin.invitedUntil, zone)})`;
  }
  return admin.email;
}

/** What the dialog asks before a removal of rights or a withdrawal. */
function removalQuestion(admin: Admin): string {
  const who = `${admin.name} (${admin.email})`;
  if (admin.blocked) return `${who} was invited; their code works no more, and the invitation leaves this list.`;
  if (admin.invitedUntil) return `${who} was invited; the code sent to them stops working.`;
  return `${who} can no longer log in as an administrator; their sessions end.`;
}

/** Administrators: list, invite (and withdraw an invitation), remove rights, change one's own password. */
export default function AdminAdminsPage() {
  const { token, call: callAsAdmin } = useApi('admin');
  const zone = useCentreZone();
  /** null while loading; 'failed' when the last load failed. */
  const [admins, setAdmins] = useState<ResponseOf<'listAdmins'> | 'failed' | null>(null);
  /** The objectId of an admin being removed (or an invitation withdrawn). */
  const [busy, setBusy] = useState<string | null>(null);
  /** The administrator or invitation whose removal waits for a yes. */
  const [asked, setAsked] = useState<Admin | null>(null);
  /** Why the removal (or withdrawal) asked about failed, said in its question. */
  const [removalProblem, setRemovalProblem] = useState<string | undefined>(undefined);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const [invite, setInvite] = useState({ email: '', name: '' });
  const {
    formRef: inviteForm,
    fail: inviteFailed,
    changed: inviteChanged,
    run: runInvite,
    busy: inviteBusy,
    fieldProps: inviteFieldProps,
    problem: inviteProblem,
  } = useFormProblem(INVITE_FIELDS);

  const [reloads, setReloads] = useState(0);
  const load = () => setReloads((n) => n + 1);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    void callAsAdmin('listAdmins', {}).then((result) => {
      if (cancelled) return;
      if (result.ok && result.data) setAdmins(result.data);
      else if (!result.sessionEnded) {
        setAdmins((current) => (Array.isArray(current) ? current : 'failed'));
        notify.error(errorText(result, AdminToolsMessage.adminsNotLoaded));
      }
    });
    return () => {
      cancelled = true;
    };
  }, [token, callAsAdmin, reloads]);

  if (!token) return <Navigate to={Route.adminLogin} replace />;

  const sendInvite = (event: FormEvent) => {
    event.preventDefault();
    void runInvite(async () => {
      // The rules of domain/, under their fields; the server runs them again.
      const badName = adminNameProblem(normalizeFullname(invite.name));
      if (badName) return inviteFailed(badName, 'name');
      if (!invite.email.trim()) return inviteFailed(RegistrationMessage.emailRequired, 'email');
      if (!isValidEmail(normalizeEmail(invite.email))) return inviteFailed(RegistrationMessage.emailInvalid, 'email');
      const result = await callAsAdmin('inviteAdmin', invite);
      if (result.ok) {
        notify.success(AdminToolsMessage.invitationSent(invite.email));
        setInvite({ email: '', name: '' });
        load();
      } else if (!result.sessionEnded)
        inviteFailed(errorText(result, AdminToolsMessage.invitationFailed), errorField(result));
    });
  };
  const setInviteField = (field: 'name' | 'email', value: string) => {
    setInvite((current) => ({ ...current, [field]: value }));
    inviteChanged(field);
  };

  /** Sends a blocked invitation again, to the same name and address: a new code replaces the dead one. */
  const inviteAgain = async ({ objectId, email, name }: Admin) => {
    setBusy(objectId);
    const result = await callAsAdmin('inviteAdmin', { email, name });
    setBusy(null);
    if (result.ok) {
      notify.success(AdminToolsMessage.invitationSent(email));
      // The row's buttons change with it: the focus goes to the list's heading.
      focusAfterDialog(() => listHeading.current);
      load();
    } else if (!result.sessionEnded) notify.error(errorText(result, AdminToolsMessage.invitationFailed));
  };

  /** Removes an administrator's rights, or withdraws an invitation not yet accepted (a call of its own). */
  const remove = async ({ objectId, invitedUntil }: Admin) => {
    setBusy(objectId);
    const result = invitedUntil
      ? await callAsAdmin('withdrawAdminInvitation', { objectId })
      : await callAsAdmin('removeAdmin', { objectId });
    setBusy(null);
    if (result.ok || result.sessionEnded) setAsked(null);
    if (result.ok) {
      notify.success(invitedUntil ? 'Invitation withdrawn' : 'Administrator rights removed');
      // Its button has gone with it: the focus goes to the list's heading.
      focusAfterDialog(() => listHeading.current);
    } else if (!result.sessionEnded)
      // The question stays open, saying why (a toast behind it would be hidden from screen readers).
      setRemovalProblem(errorText(result, invitedUntil ? 'Withdrawal failed' : 'Removal failed'));
    load();
  };

  return (
    <AdminPage title="Administrators" heading="Administrators">
      {/* A short list and a form: narrower than the frame, which keeps every section's width. */}
      <Stack spacing={3} sx={{ maxWidth: 900 }}>
        <Card sx={{ p: { xs: 1.5, sm: 2.5 } }}>
          <Typography ref={listHeading} tabIndex={-1} variant="h2" sx={{ fontSize: '1.25rem', mb: 1, outline: 'none' }}>
            Administrators and invitations
          </Typography>
          {!Array.isArray(admins) && (
            <LoadStatus
              failed={admins === 'failed'}
              failedText={AdminToolsMessage.adminsNotLoaded}
              onRetry={() => {
                setAdmins(null);
                load();
              }}
              focusAfterLoad={() => listHeading.current}
            />
          )}
          <List aria-label="Administrators">
            {(Array.isArray(admins) ? admins : []).map((admin) => (
              // The action follows the text in the row, so the address takes what the action leaves
              // (a secondary action would reserve its widest width beside every address).
              <ListItem key={admin.objectId} divider sx={{ gap: 1 }}>
                <ListItemText
                  primary={admin.name}
                  secondary={rowDetail(admin, zone)}
                  sx={{ overflowWrap: 'anywhere', minWidth: 0 }}
                />
                {admin.self ? (
                  <Typography color="text.secondary" sx={{ flexShrink: 0 }}>
                    You
                  </Typography>
                ) : (
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={0.5} sx={{ flexShrink: 0 }}>
                    {admin.blocked && (
                      <InertButton
                        onClick={() => void inviteAgain(admin)}
                        unavailable={busy === admin.objectId}
                        aria-label={`Invite ${admin.email} again`}
                      >
                        Invite again
                      </InertButton>
                    )}
                    <InertButton
                      color="error"
                      onClick={() => setAsked(admin)}
                      unavailable={busy === admin.objectId}
                      aria-label={`${admin.invitedUntil ? 'Withdraw the invitation of' : 'Remove'} ${admin.email}`}
                    >
                      {admin.invitedUntil ? 'Withdraw' : 'Remove'}
                    </InertButton>
                  </Stack>
                )}
              </ListItem>
            ))}
          </List>
        </Card>
        <Card component="form" ref={inviteForm} noValidate onSubmit={sendInvite} sx={{ p: { xs: 1.5, sm: 2.5 } }}>
          <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
            Invite an administrator
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ '& .MuiTextField-root': { flex: 1 } }}>
            <TextField
              label="Name"
              name="name"
              value={invite.name}
              onChange={(e) => setInviteField('name', e.target.value)}
              required
              {...inviteFieldProps('name')}
            />
            <TextField
              label="Email"
              name="email"
              type="email"
              value={invite.email}
              onChange={(e) => setInviteField('email', e.target.value)}
              required
              sx={{ flex: 1 }}
              {...inviteFieldProps('email')}
            />
            <InertButton
              type="submit"
              variant="contained"
              unavailable={inviteBusy}
              sx={{ alignSelf: { sm: 'flex-start' } }}
            >
              {inviteBusy ? 'Sending...' : 'Send invitation'}
            </InertButton>
          </Stack>
          {/* A problem no field is to blame for (too many codes, a mail that could not go). */}
          <FormMessage problem={inviteProblem} />
        </Card>
        <ChangePasswordSection
          role="admin"
          heading="Change your password"
          sx={{ p: { xs: 1.5, sm: 2.5 } }}
          headingSize="1.25rem"
        />
      </Stack>
      <ConfirmDialog
        open={asked !== null}
        title={asked?.invitedUntil ? 'Withdraw this invitation?' : 'Remove these administrator rights?'}
        text={asked ? removalQuestion(asked) : ''}
        action={asked?.invitedUntil ? 'Withdraw' : 'Remove'}
        destructive
        busy={busy !== null}
        onConfirm={() => {
          setRemovalProblem(undefined);
          if (asked) void remove(asked);
        }}
        onCancel={() => {
          setRemovalProblem(undefined);
          setAsked(null);
        }}
        problem={removalProblem}
      />
    </AdminPage>
  );
}
