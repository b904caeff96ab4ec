import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { studentSession } from './session.ts';

const heard: unknown[] = [];
const otherTab = new BroadcastChannel('tc-ended-student-sessions');
otherTab.onmessage = (event: MessageEvent) => heard.push(event.data);

afterEach(() => {
  heard.length = 0;
});
afterAll(() => otherTab.close());

describe("a student's session, as the site's other tabs hear of it", () => {
  it('announces a token replaced by a new one (a password change ends it), and one let go', async () => {
    // Messages arrive in the order sent: had the first save or the repeated one announced
    // anything, it would be heard before (or beside) the announcement waited for.
    studentSession.save('r:first');
    studentSession.save('r:second');
    studentSession.save('r:second');
    studentSession.save('r:third');
    studentSession.clear();
    await vi.waitFor(() => expect(heard.length).toBeGreaterThanOrEqual(3));
    // The same token saved again is no replacement: announced, it would stand between these.
    expect(heard).toEqual([{ studentToken: 'r:first' }, { studentToken: 'r:second' }, { studentToken: 'r:third' }]);
    expect(studentSession.token()).toBeNull();
  });
});
