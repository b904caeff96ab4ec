import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { studentSession } from './session.ts';

const heard: unknown[] = [];
const otherTab = new BroadcastChannel('tc-ended-student-sessions');
otherTab.onmessage = (event: MessageEvent) => heard.push(event.data);
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

afterEach(() => {
  heard.length = 0;
});
afterAll(() => otherTab.close());

describe("a student's session, as the site's other tabs hear of it", () => {
  it('announces a token replaced by a new one (a password change ends it), and one let go', async () => {
    studentSession.save('r:first');
    await settle();
    expect(heard).toEqual([]);
    studentSession.save('r:second');
    studentSession.save('r:second');
    await settle();
    expect(heard).toEqual([{ studentToken: 'r:first' }]);
    studentSession.clear();
    await settle();
    expect(heard).toEqual([{ studentToken: 'r:first' }, { studentToken: 'r:second' }]);
    expect(studentSession.token()).toBeNull();
  });
});
