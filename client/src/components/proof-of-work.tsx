// The ALTCHA proof of work a login asks for when its account is under a password
// spray: self-hosted (no third party), solved in a worker of
// this site (CSP worker-src 'self'), and usable by keyboard and screen reader.
// Loaded only when a login asks for it.

import { useEffect, useRef } from 'react';
import 'altcha/external';
import 'altcha/altcha.css';
import workerUrl from 'altcha/worker?worker&url';
import { CALLS } from '@tc/domain/api/contract';

const LOGIN_CHALLENGE_URL = CALLS.getLoginChallenge.path;

/** Calls `onSolved` with the solution to send with the login, or null when it is gone (expired, failed). */
export default function ProofOfWork({ onSolved }: { onSolved: (payload: string | null) => void }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const widget = ref.current;
    if (!widget) return;
    const changed = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state: string; payload?: string }>).detail;
      onSolved(state === 'verified' && payload ? payload : null);
    };
    widget.addEventListener('statechange', changed);
    return () => widget.removeEventListener('statechange', changed);
  }, [onSolved]);
  return (
    <altcha-widget
      ref={ref}
      challengeurl={LOGIN_CHALLENGE_URL}
      workerurl={workerUrl}
      auto="onload"
      hidelogo
      hidefooter
      name="altcha"
    />
  );
}
