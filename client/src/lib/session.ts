// Browser sessions: the student's token in sessionStorage
// under "userData" as JSON `{ tokenStudent }`; the admin's token as a plain
// string in localStorage under ADMIN_SESSION_KEY.

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
    write(session, STUDENT_SESSION_KEY, JSON.stringify({ tokenStudent }));
  },
  clear(): void {
    write(session, STUDENT_SESSION_KEY, null);
  },
};

export const adminSession = {
  token(): string | null {
    return read(local, ADMIN_SESSION_KEY) || null;
  },
  save(token: string): void {
    write(local, ADMIN_SESSION_KEY, token);
  },
  clear(): void {
    write(local, ADMIN_SESSION_KEY, null);
  },
};
