import { describe, expect, it } from 'vitest';
import { movesAway } from './unsaved-changes-prompt.tsx';

// What the leave question asks about: a move that would drop the work on screen.

const at = (pathname: string, search = '', state: unknown = null) => ({ pathname, search, state });
const LOGINS = ['/adminlogin', '/studentlogin'];

describe('movesAway', () => {
  it('asks about another page or view, never with nothing to lose or towards the pages let through', () => {
    const work = { when: true, goesOnTo: LOGINS };
    expect(movesAway(work, at('/admindashborad'), at('/admindashborad/timetable'))).toBe(true);
    expect(movesAway(work, at('/admindashborad/assessments', '?a=1'), at('/admindashborad/assessments', '?a=2'))).toBe(
      true,
    );
    expect(movesAway(work, at('/Registeruser'), at('/registeruser'))).toBe(false);
    expect(movesAway(work, at('/admindashborad'), at('/adminlogin'))).toBe(false);
    expect(movesAway({ ...work, when: false }, at('/admindashborad'), at('/'))).toBe(false);
  });

  it("lets the page's own view changes through only where they keep the work (the editor over the table)", () => {
    const tableWrite = at('/admindashborad', '?page=2', { viewWrite: true });
    const editor = { when: true, goesOnTo: LOGINS, viewChangesKeepIt: true };
    expect(movesAway(editor, at('/admindashborad', '?page=3'), tableWrite)).toBe(false);
    // Back to an entry of the same page that is not one of its writes, or another page: asked.
    expect(movesAway(editor, at('/admindashborad', '?page=3'), at('/admindashborad', '?q=riya'))).toBe(true);
    expect(
      movesAway(editor, at('/admindashborad', '?page=3'), at('/admindashborad/activity', '', { viewWrite: true })),
    ).toBe(true);
    // Where another view drops the work (another assessment's marks), asked as before.
    expect(movesAway({ when: true, goesOnTo: LOGINS }, at('/admindashborad', '?page=3'), tableWrite)).toBe(true);
  });
});
