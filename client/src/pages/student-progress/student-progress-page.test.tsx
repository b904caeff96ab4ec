import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp } from '../../test/render-app.tsx';
import { progress } from '../../test/progress.ts';
import { signIn } from '../../test/student.ts';

describe('the progress page', () => {
  it('says when the results do not come, and loads them again on "Try again", the focus kept on the status, then on the results', async () => {
    signIn();
    let answers = 0;
    mockFetch({
      'GET /api/students/me/progress': () =>
        ++answers <= 2 ? { status: 503, body: { code: 3503, error: 'Try again' } } : { body: progress },
    });
    renderApp('/dashboard/progress');
    expect(await screen.findByText('Your results could not be loaded.')).toBeInTheDocument();
    expect(await screen.findByText('Error loading data')).toBeInTheDocument();
    const status = screen.getByText('Your results could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    // Failed again: the same status says so, with the focus on it (the button went meanwhile).
    await waitFor(() => expect(answers).toBe(2));
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(status).toHaveTextContent('Your results could not be loaded.');
    expect(status).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('18 / 20 (90%)')).toBeInTheDocument();
    expect(screen.queryByText('Your results could not be loaded.')).not.toBeInTheDocument();
    expect(answers).toBe(3);
    // The student's own average per subject, said as theirs (the batch's averages are on the page too).
    expect(screen.getByText('Your average 90%')).toBeInTheDocument();
    // Loaded: the focus goes on to what came in its place (its first heading), not to the page's start.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'By subject' })).toHaveFocus());
    // And the failure's toast has gone with the failure.
    await waitFor(() => expect(screen.queryByText('Error loading data')).not.toBeInTheDocument());
  });
});

describe('the results list', () => {
  it('shows a test missed as Absent, never as a mark of 0, with the batch average beside it', async () => {
    signIn();
    const missed = {
      objectId: 'a2',
      subject: 'Science',
      title: 'Unit Test 4',
      date: '2026-11-24',
      maxMarks: 25,
      absent: true,
      batchAverage: 19.5,
      batchAveragePercentage: 78,
    };
    mockFetch({
      'GET /api/students/me/progress': () => ({
        body: { ...progress, assessments: [missed, ...progress.assessments] },
      }),
    });
    renderApp('/dashboard/progress');
    const results = await screen.findByRole('region', { name: 'All results' });
    const [first, second] = within(results).getAllByRole('listitem');
    expect(first).toHaveTextContent('Science: Unit Test 4');
    expect(first).toHaveTextContent('Absent');
    expect(first).not.toHaveTextContent(/\b0 \//);
    expect(first).toHaveTextContent('Batch average 19.5 / 25 (78%)');
    expect(second).toHaveTextContent('18 / 20 (90%)');
    expect(second).toHaveTextContent('Batch average shown once 5 students have marks');
  });
});
