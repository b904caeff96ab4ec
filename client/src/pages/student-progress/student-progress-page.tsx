import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import type { ResponseOf } from '@tc/domain/api/contract';
import { AVERAGE_MIN_STUDENTS, AssessmentMessage } from '@tc/domain/assessments';
import { isoToDisplayDate } from '@tc/domain/dates';
import { UiMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import { LinkButton } from '../../components/link-button.tsx';
import { LoadStatus } from '../../components/load-status.tsx';
import { PageFrame } from '../../components/page-frame.tsx';
import { notify } from '../../lib/notify.ts';
import { useApi } from '../../lib/use-api.ts';
import type { LoginReturnState } from '../../lib/navigation-state.ts';
import { loadSubjectChart } from './subject-chart-code.ts';
import { TrendTable, type SubjectProgress } from './trend-table.tsx';

type Progress = ResponseOf<'getMyProgress'>;

/** Each subject's table for everyone, where its chart's code did not come. */
function TableInstead({ subject }: { subject: SubjectProgress }) {
  return <TrendTable subject={subject} />;
}
const tablesInstead = { default: TableInstead };

/**
 * The charts' code, fetched as soon as this page's own code runs: beside the results'
 * request, not after it, and never in the way of the results list. If it cannot be fetched
 * (a phone's network), each subject shows its table instead. (Vite's loader answers nothing
 * when main.tsx has taken its failure to reload the page for a new release, once a tab.)
 */
const chartCode = loadSubjectChart().then(
  (code) => (code as typeof code | undefined) ?? tablesInstead,
  () => tablesInstead,
);
const SubjectChart = lazy(() => chartCode);

/** A subject's average and its percentages over time. */
function SubjectTrend({ subject }: { subject: SubjectProgress }) {
  const id = `trend-${subject.subject.replace(/\W+/g, '-')}`;
  return (
    <Card component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 }, minWidth: 0, position: 'relative' }}>
      <Typography id={id} variant="h3" sx={{ fontSize: '1.15rem', fontWeight: 700 }}>
        {subject.subject}
      </Typography>
      {/* "Your": the page shows the batch's averages too. */}
      <Typography color="text.secondary">Your average {subject.averagePercentage}%</Typography>
      <Suspense fallback={<Box sx={{ height: 200 }} />}>
        <SubjectChart subject={subject} />
      </Suspense>
    </Card>
  );
}

export default function StudentProgressPage() {
  const { token, call: callAsStudent } = useApi('student');
  const [progress, setProgress] = useState<Progress | null>(null);
  const [failed, setFailed] = useState(false);
  /** Bumped by "Try again" after a failed load. */
  const [retries, setRetries] = useState(0);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    void callAsStudent('getMyProgress', {}).then((result) => {
      if (cancelled) return;
      if (result.ok && result.data) {
        setProgress(result.data);
        // A failure's toast no longer applies once "Try again" has brought the results.
        if (retries > 0) notify.dismiss(UiMessage.errorLoadingData);
      } else if (!result.sessionEnded) {
        notify.error(UiMessage.errorLoadingData);
        setFailed(true);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [token, callAsStudent, retries]);

  if (!token) {
    const back: LoginReturnState = { from: Route.progress };
    return <Navigate to={Route.studentLogin} replace state={back} />;
  }

  return (
    <PageFrame
      variant="student"
      title="Your progress"
      heading="Your Progress"
      maxWidth={900}
      actions={
        <LinkButton to={Route.dashboard} variant="outlined">
          Back to dashboard
        </LinkButton>
      }
    >
      {!progress && (
        <LoadStatus
          failed={failed}
          failedText={AssessmentMessage.progressNotLoaded}
          // What came: the first heading of the results, or the line saying there are none yet.
          focusAfterLoad={() =>
            document.getElementById('subjects-heading') ??
            document.getElementById('results-heading') ??
            document.getElementById('no-marks-yet')
          }
          onRetry={() => {
            setFailed(false);
            setRetries((n) => n + 1);
          }}
        />
      )}
      {progress && progress.assessments.length === 0 && (
        <Card sx={{ p: { xs: 2.5, sm: 4 } }}>
          <Typography id="no-marks-yet">
            No marks yet: your first results will appear here after your next test
          </Typography>
        </Card>
      )}
      {progress && progress.subjects.length > 0 && (
        <Box component="section" aria-labelledby="subjects-heading" sx={{ mb: 4 }}>
          <Typography id="subjects-heading" variant="h2" sx={{ mb: 2 }}>
            By subject
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            {progress.subjects.map((subject) => (
              <SubjectTrend key={subject.subject} subject={subject} />
            ))}
          </Box>
        </Box>
      )}
      {progress && progress.assessments.length > 0 && (
        <Box component="section" aria-labelledby="results-heading">
          <Typography id="results-heading" variant="h2" sx={{ mb: 2 }}>
            All results
          </Typography>
          {/* role="list": without its markers, Safari's VoiceOver no longer reads an ol as a list. */}
          <Stack component="ol" role="list" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {progress.assessments.map((a) => (
              <Card component="li" key={a.objectId} sx={{ p: { xs: 2, sm: 2.5 } }}>
                <Stack
                  direction={{ xs: 'column', sm: 'row' }}
                  spacing={1}
                  sx={{ justifyContent: 'space-between', alignItems: { sm: 'baseline' } }}
                >
                  <Box sx={{ minWidth: 0 }}>
                    <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
                      {a.subject}: {a.title}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {isoToDisplayDate(a.date)}
                    </Typography>
                  </Box>
                  <Box sx={{ textAlign: { sm: 'right' } }}>
                    <Typography sx={{ fontWeight: 700, fontSize: '1.15rem' }}>
                      {a.absent ? 'Absent' : `${a.marks} / ${a.maxMarks} (${a.percentage}%)`}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {a.batchAverage !== undefined
                        ? `Batch average ${a.batchAverage} / ${a.maxMarks} (${a.batchAveragePercentage}%)`
                        : `Batch average shown once ${AVERAGE_MIN_STUDENTS} students have marks`}
                    </Typography>
                  </Box>
                </Stack>
              </Card>
            ))}
          </Stack>
        </Box>
      )}
    </PageFrame>
  );
}
