import { describe, expect, it } from 'vitest';
import { adminInviteEmail, adminNameProblem } from './admin-tools.ts';
import { AdminToolsMessage } from './admin-tools-messages.ts';
import { normalizeFullname } from './registration.ts';

describe('the invitation mail', () => {
  const page = 'https://tuition.example/admin/accept-invite';

  it('links to the page with the address filled in, and greets by name', () => {
    const { text } = adminInviteEmail({ name: 'Meera Iyer', email: 'meera@example.com' }, '481516', page);
    expect(text).toContain('Hello Meera Iyer,');
    expect(text).toContain(`${page}?email=meera%40example.com`);
    expect(text.match(/\d{6}/g)).toEqual(['481516']);
  });

  it('keeps the code the only run of six digits when the name or the address has one', () => {
    const { text } = adminInviteEmail({ name: 'Lab 2024101', email: 'teacher123456@example.com' }, '481516', page);
    expect(text.match(/\d{6}/g)).toEqual(['481516']);
    expect(text).toContain('Hello,');
    expect(text).toContain(`${page}\n`);
    // Or once written in the link: "@2024school" is "%402024school" there.
    const encoded = adminInviteEmail({ name: 'Meera', email: 'x@2024school.in' }, '481516', page).text;
    expect(encoded.match(/\d{6}/g)).toEqual(['481516']);
  });
});

describe("an invited administrator's name", () => {
  it("follows a student's full-name rule, in the Name field's words", () => {
    expect(adminNameProblem(normalizeFullname('  Meera   Iyer '))).toBeNull();
    expect(normalizeFullname('  Meera   Iyer ')).toBe('Meera Iyer');
    expect(adminNameProblem(normalizeFullname(' \t '))).toBe(AdminToolsMessage.nameRequired);
    expect(adminNameProblem('M'.repeat(100))).toBeNull();
    expect(adminNameProblem('M'.repeat(101))).toBe('Name must be at most 100 characters');
    // A non-character, a zero-width space, a direction mark: the mail's greeting would show them.
    for (const name of ['\ufffe', 'Meera\u200bIyer', 'Meera\u202eIyer']) {
      expect(adminNameProblem(normalizeFullname(name))).toBe('Name must not contain invisible or control characters');
    }
  });
});
