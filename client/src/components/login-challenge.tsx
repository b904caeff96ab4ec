// Shows the proof-of-work challenge once a login has asked for one (code 3052),
// loading the widget only then: no login page pays for it up front.

import { lazy, Suspense } from 'react';
import Box from '@mui/material/Box';
import { ErrorCode } from '@tc/domain/errors';
import type { ApiResult } from '../lib/api.ts';
import { errorCode } from '../lib/errors.ts';

const ProofOfWork = lazy(() => import('./proof-of-work.tsx'));

export const asksForChallenge = (result: ApiResult<unknown>) => errorCode(result) === ErrorCode.ChallengeRequired;

/** `round` 0 shows nothing; each new round shows a fresh challenge. */
export function LoginChallenge({ round, onSolved }: { round: number; onSolved: (payload: string | null) => void }) {
  if (!round) return null;
  return (
    <Box data-testid="login-challenge">
      <Suspense fallback={null}>
        <ProofOfWork key={round} onSolved={onSolved} />
      </Suspense>
    </Box>
  );
}
