import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import type { ResponseOf } from '@tc/domain/api/contract';
import { AVERAGE_MIN_STUDENTS, AssessmentMessage } from '@tc/domain/assessments';
import { chartDateLabels, isoToDisplayDate } from '@tc/domain/dates';
import { UiMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import { LinkButton } from '../../components/link-button.tsx';
import { LoadStatus } from '../../components/load-status.tsx';
import { PageFrame } from '../../components/page-frame.tsx';
import { notify } from '../../lib/notify.ts';
import { useApi } from '../../lib/use-api.ts';
import type { LoginReturnState } from '../../lib/navigation-state.ts';

type Progress = ResponseOf<'getMyProgress'>;
type SubjectProgress = Progress['subjects'][number];

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** A subject's percentages over time: the chart for the eye, a table for screen readers. */
function SubjectTrend({ subject }: { subject: SubjectProgress }) {
  const id = `trend-${subject.subject.replace(/\W+/g, '-')}`;
  const labels = chartDateLabels(subject.points.map((p) => p.date));
  return (
    <Card component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 }, minWidth: 0, position: 'relative' }}>
      <Typography id={id} variant="h3" sx={{ fontSize: '1.15rem', fontWeight: 700 }}>
        {subject.subject}
      </Typography>
      <Typography color="text.secondary">Average {subject.averagePercentage}%</Typography>
      {/* From the first result (a point; a line from the second). The chart is a picture for
          sighted readers; the table below says the same to everyone (inert: out of the tab
          order and the accessibility tree). */}
      <Box inert sx={{ width: '100%', height: 200 }}>
        <LineChart
          height={200}
          margin={{ left: 0, right: 32, top: 12, bottom: 0 }}
          skipAnimation
          // Positions by order, labels by date: two tests on one day keep a point each.
          xAxis={[
            {
              scaleType: 'point',
              data: subject.points.map((_, i) => i),
              valueFormatter: (i: number) => labels[i] ?? '',
            },
          ]}
          yAxis={[{ min: 0, max: 100, width: 44, valueFormatter: (value: number) => `${value}%` }]}
          // Straight lines from result to result: a curve draws values between tests that no test gave.
          series={[{ data: subject.points.map((p) => p.percentage), label: '%', showMark: true, curve: 'linear' }]}
          hideLegend
        />
      </Box>
      <Box component="table" sx={visuallyHidden}>
        <caption>{subject.subject}: percentage per assessment, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Assessment</th>
            <th scope="col">Percentage</th>
          </tr>
        </thead>
        <tbody>
          {subject.points.map((p, i) => (
            // Two tests of one subject may share a date and a title; the list never reorders.
            <tr key={i}>
              <td>{isoToDisplayDate(p.date)}</td>
              <td>{p.title}</td>
              <td>{p.percentage}%</td>
            </tr>
          ))}
        </tbody>
      </Box>
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
      if (result.ok && result.data) setProgress(result.data);
      else if (!result.sessionEnded) {
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
          onRetry={() => {
            setFailed(false);
            setRetries((n) => n + 1);
          }}
        />
      )}
      {progress && progress.assessments.length === 0 && (
        <Card sx={{ p: { xs: 2.5, sm: 4 } }}>
          <Typography>No marks yet: your first results will appear here after your next test</Typography>
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
          <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
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
