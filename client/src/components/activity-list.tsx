import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ResponseOf } from '@tc/domain/api/contract';
import { STUDENT_COLUMNS } from '@tc/domain/admin-tools';
import { isoToDisplayDate } from '@tc/domain/dates';
import { GRADES } from '@tc/domain/constants';
import { gradeLabel } from '@tc/domain/registration';
import { WEEKDAYS, boardLabel } from '@tc/domain/timetable';
import { useCentreZone } from '../lib/centre-zone.ts';
import { dateTimeIn } from '../lib/date-time.ts';

export type ActivityEntry = ResponseOf<'listActivity'>[number];

export const KIND_LABELS: Record<string, string> = {
  'student.update': 'Student edited',
  'student.deactivate': 'Student deactivated',
  'student.reactivate': 'Student reactivated',
  'student.erase': 'Personal data erased',
  'students.export': 'Students exported (CSV)',
  'admin.invite': 'Admin invited',
  'admin.accept': 'Invitation accepted',
  'admin.remove': 'Admin rights removed',
  'admin.withdraw': 'Invitation withdrawn',
  'admin.password': 'Password changed',
  'timetable.create': 'Class added',
  'timetable.update': 'Class changed',
  'timetable.delete': 'Class deleted',
  'holiday.create': 'Holiday added',
  'holiday.delete': 'Holiday deleted',
  'assessment.create': 'Assessment created',
  'assessment.update': 'Assessment changed',
  'assessment.delete': 'Assessment deleted',
  'assessment.publish': 'Marks published',
  'marks.save': 'Marks entered',
  'marks.import': 'Marks imported (CSV)',
};

/** A changed field as the forms label it; a marks entry's field ("#12", an enrollment id) stays as it is. */
const FIELD_LABELS: Record<string, string> = {
  ...STUDENT_COLUMNS,
  status: 'Status',
  subject: 'Subject',
  title: 'Title',
  date: 'Date',
  maxMarks: 'Maximum marks',
  weekday: 'Day',
  start: 'Start time',
  duration: 'Duration (minutes)',
  teacher: 'Teacher',
  link: 'Online class link',
  from: 'From',
  to: 'To',
  name: 'Name',
  role: 'Role',
  password: 'Password',
};

/** A field's label; a marks line ("#12") is "Marks" in a student's History, whose student it is. */
function fieldLabel(field: string, ofManyStudents: boolean): string {
  if (field.startsWith('#')) return ofManyStudents ? field : 'Marks';
  return FIELD_LABELS[field] ?? field;
}

/** A value as the screens show it: dates DD/MM/YYYY, a class's day by its name, "5th", "all boards". */
function shown(field: string, value: string): string {
  if (!value) return '—';
  if (field === 'weekday') return WEEKDAYS[Number(value) - 1] ?? value;
  if (field === 'grade' && (GRADES as readonly number[]).includes(Number(value))) return gradeLabel(Number(value));
  if (field === 'board') return boardLabel(value);
  return isoToDisplayDate(value);
}

/** Activity entries as a list: who, when (at the centre), what, each field before and after. */
export function ActivityList({ entries, showTarget = false }: { entries: ActivityEntry[]; showTarget?: boolean }) {
  // Each entry's time in the centre's zone, as the Activity page's days are.
  const zone = useCentreZone();
  if (!entries.length) return <Typography color="text.secondary">No recorded activity.</Typography>;
  return (
    <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {entries.map((entry) => (
        <Box component="li" key={entry.objectId} sx={{ borderBottom: 1, borderColor: 'divider', pb: 1.5 }}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
            <Typography sx={{ fontWeight: 700 }}>{KIND_LABELS[entry.kind] ?? entry.kind}</Typography>
            {/* Dark text on the default chip: the warning colour's white label falls short of 4.5:1. */}
            {entry.state !== 'applied' && <Chip size="small" variant="outlined" label={entry.state} />}
            <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {dateTimeIn(entry.at, zone)} by {entry.adminEmail}
              {showTarget && entry.enrollmentId !== undefined ? ` · student ${entry.enrollmentId}` : ''}
              {/* In a student's History, only their marks' entries name what they are about. */}
              {entry.target ? ` · ${entry.target}` : ''}
            </Typography>
          </Stack>
          {entry.changes.length > 0 && (
            <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
              {entry.changes.map((change, i) => (
                <Typography component="li" key={i} sx={{ overflowWrap: 'anywhere' }}>
                  <b>{fieldLabel(change.field, showTarget)}</b>: {shown(change.field, change.before)} →{' '}
                  {shown(change.field, change.after)}
                </Typography>
              ))}
            </Box>
          )}
        </Box>
      ))}
    </Stack>
  );
}
