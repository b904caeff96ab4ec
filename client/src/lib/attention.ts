// Whether someone is at the page. A call a page makes by itself (a live update's
// reload, the next class once one ends) is a use of the session like any other: after
// a while without the person's own input, a page stops making them, so that a page left
// open cannot keep a session alive past its idle timeout. The next key or pointer press
// lets the page catch up.

/** How long after the last key or pointer press the page counts as unattended. */
export const UNATTENDED_MS = 10 * 60_000;
const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

let lastInput = Date.now();
const waiting = new Set<() => void>();
let listening = false;

function listen(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  const input = () => {
    lastInput = Date.now();
    const due = [...waiting];
    waiting.clear();
    due.forEach((callback) => callback());
  };
  for (const name of INPUT_EVENTS) window.addEventListener(name, input, { passive: true, capture: true });
}

// From the page's first moment: input before the first call of a page of its own counts.
listen();

/** Whether the person has pressed a key or touched the page lately (the page is in use). */
export function attended(): boolean {
  listen();
  return Date.now() - lastInput <= UNATTENDED_MS;
}

/** Runs `callback` once, at the person's next key or pointer press; returns how to cancel it. */
export function onNextInput(callback: () => void): () => void {
  listen();
  waiting.add(callback);
  return () => waiting.delete(callback);
}
