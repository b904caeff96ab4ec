// A subject's chart: the progress page's heaviest code (MUI X Charts), fetched beside the
// page's results rather than before them (student-progress-page.tsx).

import Box from '@mui/material/Box';
import { LineChart } from '@mui/x-charts/LineChart';
import { chartDateLabels } from '@tc/domain/dates';
import { TrendTable, type SubjectProgress } from './trend-table.tsx';

/** A subject's percentages over time: the chart for the eye, a table for screen readers. */
export default function SubjectChart({ subject }: { subject: SubjectProgress }) {
  const labels = chartDateLabels(subject.points.map((p) => p.date));
  return (
    <>
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
      <TrendTable subject={subject} hidden />
    </>
  );
}
