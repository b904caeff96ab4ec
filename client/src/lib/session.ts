// Browser sessions: the student's token in sessionStorage
// under "userData" as JSON `{ tokenStudent }`; the admin's token as a plain
// string in localStorage under ADMIN_SESSION_KEY. Beside each token, in the same
// storage, the signed-in person's name for the header, kept with the token it
// belongs to so that another login never shows a stale name.

import { ADMIN_SESSION_KEY, STUDENT_SESSION_KEY } from '@tc/domain/constants';

function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, blocked cookies); the session then lasts the page.
  }
}

const session = () => window.sessionStorage;
const local = () => window.localStorage;

const NAME_KEY = 'signedInName';
const listeners = new Set<() => void>();
let changes = 0;

function changed(): void {
  changes += 1;
  listeners.forEach((listener) => listener());
}

let watchingOtherTabs = false;

/**
 * A student's session that one tab lets go is announced to the site's other tabs.
 * sessionStorage is each tab's own, but a duplicated or reopened tab starts with a copy of
 * it: that copy, the same token, would otherwise go on showing the child's profile after the
 * logout. Only a tab that holds a student's session listens (an open listener keeps a page
 * out of the browser's back-forward cache, which a visitor's pages keep).
 */
const ENDED_SESSIONS_CHANNEL = 'tc-ended-student-sessions';
let listening: BroadcastChannel | null = null;

function listenForEndedSessions(): void {
  if (listening || typeof BroadcastChannel === 'undefined') return;
  listening = new BroadcastChannel(ENDED_SESSIONS_CHANNEL);
  listening.onmessage = (event: MessageEvent<unknown>) => {
    const ended = event.data as { studentToken?: unknown } | null;
    if (ended && typeof ended.studentToken === 'string' && ended.studentToken === studentSession.token()) {
      forgetStudent();
    }
  };
}

function announceEnded(studentToken: string): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(ENDED_SESSIONS_CHANNEL);
  channel.postMessage({ studentToken });
  channel.close();
}

/**
 * The admin's session lives in localStorage, which every tab of the site shares: a
 * logout or a login in another tab reaches this one as a `storage` event. A student's
 * session that another tab let go arrives on the channel above.
 */
function watchOtherTabs(): void {
  if (watchingOtherTabs || typeof window === 'undefined') return;
  watchingOtherTabs = true;
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === ADMIN_SESSION_KEY || event.key === NAME_KEY) changed();
  });
}

/** For useSyncExternalStore: a login, a logout, a new token or a name learnt, in this tab or another. */
export const sessionChanges = {
  subscribe: (listener: () => void): (() => void) => {
    watchOtherTabs();
    // A tab that opened with a student's session (a duplicate, or a reload) listens from the start.
    if (studentSession.token()) listenForEndedSessions();
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  count: (): number => changes,
};

function nameIn(storage: () => Storage, token: string | null): string | null {
  if (!token) return null;
  try {
    const stored = JSON.parse(read(storage, NAME_KEY) ?? 'null') as { token?: unknown; name?: unknown } | null;
    return stored?.token === token && typeof stored.name === 'string' && stored.name ? stored.name : null;
  } catch {
    return null;
  }
}

function rememberIn(storage: () => Storage, token: string | null, name: string): void {
  if (!token || nameIn(storage, token) === name) return;
  write(storage, NAME_KEY, JSON.stringify({ token, name }));
  changed();
}

function forgetStudent(): void {
  listening?.close();
  listening = null;
  write(session, STUDENT_SESSION_KEY, null);
  write(session, NAME_KEY, null);
  changed();
}

export const studentSession = {
  token(): string | null {
    const raw = read(session, STUDENT_SESSION_KEY);
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (parsed && typeof parsed === 'object' && 'tokenStudent' in parsed) {
        const token = parsed.tokenStudent;
        return typeof token === 'string' && token ? token : null;
      }
      return typeof parsed === 'string' && parsed ? parsed : null;
    } catch {
      // A bare token string is accepted too.
      return raw;
    }
  },
  save(tokenStudent: string): void {
    // A new token of the same student (after a password change) keeps the name.
    const previous = this.token();
    const name = nameIn(session, previous);
    write(session, STUDENT_SESSION_KEY, JSON.stringify({ tokenStudent }));
    // The token it replaces has ended (a password change ends every other session): a tab
    // holding it lets it go too.
    if (previous && previous !== tokenStudent) announceEnded(previous);
    if (name) write(session, NAME_KEY, JSON.stringify({ token: tokenStudent, name }));
    listenForEndedSessions();
    changed();
  },
  clear(): void {
    const token = this.token();
    forgetStudent();
    if (token) announceEnded(token);
  },
  name(): string | null {
    return nameIn(session, this.token());
  },
  rememberName(name: string): void {
    rememberIn(session, this.token(), name);
  },
};

export const adminSession = {
  token(): string | null {
    return read(local, ADMIN_SESSION_KEY) || null;
  },
  save(token: string): void {
    const name = nameIn(local, this.token());
    write(local, ADMIN_SESSION_KEY, token);
    if (name) write(local, NAME_KEY, JSON.stringify({ token, name }));
    changed();
  },
  clear(): void {
    write(local, ADMIN_SESSION_KEY, null);
    write(local, NAME_KEY, null);
    changed();
  },
  name(): string | null {
    return nameIn(local, this.token());
  },
  rememberName(name: string): void {
    rememberIn(local, this.token(), name);
  },
};
