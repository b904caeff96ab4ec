import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { isoToDisplayDate } from '@tc/domain/dates';
import { UiMessage } from '@tc/domain/messages';
import { gradeLabel } from '@tc/domain/registration';
import { Route } from '@tc/domain/routes';
import type { StudentProfile } from '@tc/domain/student';
import { ChangePasswordSection } from '../../components/change-password-section.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { InertButton } from '../../components/inert-button.tsx';
import { LinkButton } from '../../components/link-button.tsx';
import { LoadStatus } from '../../components/load-status.tsx';
import { LogoutButton } from '../../components/logout-button.tsx';
import { PageFrame } from '../../components/page-frame.tsx';
import { ProfileSkeleton } from '../../components/profile-skeleton.tsx';
import { logOut } from '../../lib/log-out.ts';
import { notify } from '../../lib/notify.ts';
import { studentSession } from '../../lib/session.ts';
import { useApi } from '../../lib/use-api.ts';
import { ScheduleSection } from './schedule-section.tsx';

type LoadState =
  | { status: 'loading' }
  | { status: 'loaded'; profile: StudentProfile }
  | { status: 'failed' }
  // Asked again after a failure: said in the failure's place, so that a screen reader hears it.
  | { status: 'retrying' };

function profileRows(profile: StudentProfile): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ['Full Name', profile.fullname],
    ['Email', profile.email],
    ['Mobile', profile.mobile],
    ['Board', profile.board],
    ['Grade', typeof profile.grade === 'number' ? gradeLabel(profile.grade) : String(profile.grade ?? '')],
    ['Gender', profile.gender],
  ];
  if (profile.dob) rows.push(['Date of Birth', isoToDisplayDate(profile.dob)]);
  if (profile.id !== undefined && profile.id !== null) rows.push(['Enrollment ID', String(profile.id)]);
  return rows;
}

export default function StudentDashboardPage() {
  const { token, call: callAsStudent, signOut } = useApi('student');
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  // "Try again" after a failed load asks once more.
  const [attempt, setAttempt] = useState(0);
  const [loggingOut, setLoggingOut] = useState(false);
  // "Log out of all devices" asks first: one stray tap would sign out every device of the family.
  const [askingAll, setAskingAll] = useState(false);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    void callAsStudent('getMyProfile', {}).then((result) => {
      if (cancelled) return;
      if (result.ok && result.data && typeof result.data === 'object') {
        setState({ status: 'loaded', profile: result.data });
        // The header shows who is signed in.
        if (result.data.fullname) studentSession.rememberName(result.data.fullname);
      } else if (!result.sessionEnded) {
        // A session that ended is handled by useApi.
        notify.error(UiMessage.errorLoadingData);
        setState({ status: 'failed' });
      }
    });
    return () => {
      cancelled = true;
    };
  }, [token, callAsStudent, attempt]);

  if (!token) return <Navigate to={Route.studentLogin} replace />;

  // "Log out of all devices" ends every session of the student, this one included.
  const logout = async (everywhere = false) => {
    setLoggingOut(true);
    const done = await logOut('student', everywhere);
    setLoggingOut(false);
    if (done) signOut();
  };

  const profile = state.status === 'loaded' ? state.profile : null;

  return (
    <PageFrame
      variant="student"
      title="Student dashboard"
      heading="Student Dashboard"
      subtitle={profile && `Welcome, ${profile.fullname}`}
      maxWidth={760}
      actions={
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ flexShrink: 0 }}>
          <InertButton variant="text" onClick={() => setAskingAll(true)} unavailable={loggingOut}>
            Log out of all devices
          </InertButton>
          <LogoutButton onClick={() => void logout()} busy={loggingOut} />
          <ConfirmDialog
            open={askingAll}
            title="Log out of all devices?"
            text="You will be logged out here and on every other phone or computer signed in to this account."
            action="Log out everywhere"
            busy={loggingOut}
            onCancel={() => setAskingAll(false)}
            // Open until it is done: closed at once, it would give the focus back to a button
            // disabled meanwhile, and the focus would fall to the page's start.
            onConfirm={() => void logout(true).then(() => setAskingAll(false))}
          />
        </Stack>
      }
    >
      <ScheduleSection />
      <Card component="section" aria-labelledby="profile-heading" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Typography id="profile-heading" variant="h2" sx={{ mb: 2 }}>
          Your Profile
        </Typography>
        {state.status === 'loading' && <ProfileSkeleton rows={8} />}
        {(state.status === 'failed' || state.status === 'retrying') && (
          <LoadStatus
            failed={state.status === 'failed'}
            failedText="No user data available"
            onRetry={() => {
              setState({ status: 'retrying' });
              setAttempt((count) => count + 1);
            }}
          />
        )}
        {profile && (
          <Box component="dl" sx={{ m: 0 }}>
            {profileRows(profile).map(([label, value]) => (
              <Box
                key={label}
                sx={{
                  display: 'grid',
                  gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' },
                  columnGap: 3,
                  py: 1.25,
                  borderTop: 1,
                  borderColor: 'divider',
                  '&:first-of-type': { borderTop: 0, pt: 0 },
                }}
              >
                <Typography component="dt" color="text.secondary" sx={{ fontWeight: 700 }}>
                  {label}
                </Typography>
                <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </Card>
      <Card component="section" aria-labelledby="progress-heading" sx={{ p: { xs: 2.5, sm: 4 }, mt: 3 }}>
        <Typography id="progress-heading" variant="h2" sx={{ mb: 1 }}>
          Your Progress
        </Typography>
        <Typography sx={{ mb: 2 }}>Your marks in every published test, with batch averages and trends.</Typography>
        <LinkButton to={Route.progress} fullWidthOnPhone>
          See your progress
        </LinkButton>
      </Card>
      <ChangePasswordSection role="student" sx={{ p: { xs: 2.5, sm: 4 }, mt: 3 }} />
    </PageFrame>
  );
}
