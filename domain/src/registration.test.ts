import { describe, expect, it } from 'vitest';
import { ageInYears, isoToDisplayDate, isValidIsoDate } from './dates.ts';
import {
  gradeLabel,
  isValidEmail,
  normalizeMobile,
  parseBoard,
  parseGrade,
  passwordProblem,
  validateRegistration,
} from './registration.ts';
import { isKnownRoute } from './routes.ts';
import { ERASED_DOMAIN } from './admin-tools.ts';

const today = '2026-11-22';
const valid = {
  fullname: '  Asha Rao ',
  email: ' Asha@Example.COM ',
  mobile: '+91 98765 43210',
  password: 'secret-pass',
  cnfpassword: 'secret-pass',
  dob: '2016-05-01',
  gender: 'Daughter',
  grade: '3rd',
  board: 'cbse',
  tmc: true,
};

describe('validateRegistration', () => {
  it('normalises a valid registration', () => {
    expect(validateRegistration(valid, today)).toEqual({
      ok: true,
      value: {
        fullname: 'Asha Rao',
        email: 'asha@example.com',
        mobile: '9876543210',
        password: 'secret-pass',
        dob: '2016-05-01',
        gender: 'Daughter',
        grade: 3,
        board: 'CBSE',
        tmc: true,
      },
    });
  });

  it('reports the first broken rule, in the seed order, with its field', () => {
    const broken = {
      fullname: '',
      email: '',
      mobile: '',
      password: '',
      cnfpassword: 'x',
      dob: null,
      grade: '',
      board: '',
      tmc: false,
    };
    const expected = [
      ['fullname', 'Full name is required', 'Asha'],
      ['email', 'Email is required', 'bad'],
      ['email', 'Please enter a valid email address', 'a@b.co'],
      ['mobile', 'Mobile number is required', '123'],
      ['mobile', 'Please enter a valid 10-digit mobile number', '09876543210'],
      ['password', 'Password is required', 'short'],
      ['password', 'Password must be at least 8 characters', 'long-enough'],
      ['cnfpassword', 'Passwords do not match', 'long-enough'],
      ['dob', 'Date of Birth is required', '2027-01-01'],
      ['dob', 'Date of Birth cannot be in the future', '2023-01-01'],
      ['dob', 'Student must be at least 5 years old', '2000-01-01'],
      ['dob', 'Please enter a valid Date of Birth', '2015-01-01'],
      ['grade', 'Grade is required', '12'],
      ['grade', 'Grade must be between 1 to 9', 9],
      ['board', 'Board is required', 'IB'],
      ['board', 'Please select a valid board (CBSE, ICSE, or STATE)', 'State'],
      ['tmc', 'Please accept terms and conditions', true],
    ] as const;
    const input: Record<string, unknown> = { ...broken, gender: 'Son' };
    for (const [field, message, fix] of expected) {
      expect(validateRegistration(input, today)).toEqual({ ok: false, field, message });
      input[field] = fix;
    }
    expect(validateRegistration(input, today).ok).toBe(true);
  });

  it('puts the age bounds at 5 and 18 years of 365.25 days', () => {
    expect(validateRegistration({ ...valid, dob: '2021-11-21' }, today).ok).toBe(true);
    expect(validateRegistration({ ...valid, dob: '2021-11-23' }, today)).toEqual({
      ok: false,
      field: 'dob',
      message: 'Student must be at least 5 years old',
    });
    expect(validateRegistration({ ...valid, dob: '2008-11-23' }, today).ok).toBe(true);
    expect(validateRegistration({ ...valid, dob: '2007-11-20' }, today).ok).toBe(false);
  });

  it('refuses a password over 64 characters or 72 bytes', () => {
    expect(passwordProblem('a'.repeat(64))).toBeNull();
    expect(passwordProblem('a'.repeat(65))).toBe('Password must be at most 64 characters');
    expect(passwordProblem('€'.repeat(25))).toBe('Password must be at most 64 characters');
  });

  it('does not accept mistyped values', () => {
    expect(validateRegistration({ ...valid, fullname: 42 }, today)).toEqual({
      ok: false,
      field: 'fullname',
      message: 'Full name is required',
    });
    expect(validateRegistration({ ...valid, tmc: 'true' }, today).ok).toBe(false);
    expect(validateRegistration({ ...valid, gender: 'son' }, today).ok).toBe(false);
  });
});

describe('normalisation', () => {
  it('treats the spellings of one Indian mobile number as one', () => {
    for (const m of [
      '9876543210',
      '09876543210',
      '+91 98765 43210',
      '919876543210',
      '+91-98765-43210',
      '(987) 654-3210',
    ]) {
      expect(normalizeMobile(m)).toBe('9876543210');
    }
    for (const m of ['12345', '0987654321', '+1 9876543210', '98765432101', 'abcdefghij', '']) {
      expect(normalizeMobile(m)).toBeNull();
    }
  });

  it('reads grades and boards', () => {
    expect([parseGrade(1), parseGrade('9'), parseGrade('2nd'), parseGrade(0), parseGrade(10), parseGrade('x')]).toEqual(
      [1, 9, 2, null, null, null],
    );
    expect([1, 2, 3, 4, 9].map(gradeLabel)).toEqual(['1st', '2nd', '3rd', '4th', '9th']);
    expect([parseBoard('state'), parseBoard('ICSE'), parseBoard('ib')]).toEqual(['State', 'ICSE', null]);
  });

  it('does calendar maths without time zones', () => {
    expect(isValidIsoDate('2024-02-29')).toBe(true);
    expect(isValidIsoDate('2023-02-29')).toBe(false);
    expect(ageInYears('2016-11-22', '2026-11-22')).toBeCloseTo(10, 1);
    expect(isoToDisplayDate('2016-05-01')).toBe('01/05/2016');
  });

  it('matches routes case-insensitively', () => {
    expect(
      ['/', '/Home', '/Registeruser', '/admindashborad', '/admindashboard/', '/thank-you'].every(isKnownRoute),
    ).toBe(true);
    expect(isKnownRoute('/nope')).toBe(false);
  });
});

describe('addresses no mail reaches', () => {
  it("refuses the domain that never resolves, where an erased account's address is", () => {
    for (const email of [`erased-abc123@${ERASED_DOMAIN}`, 'parent@school.INVALID', ' a@b.invalid ']) {
      expect(isValidEmail(email), email).toBe(false);
      expect(validateRegistration({ ...valid, email }, today)).toMatchObject({ ok: false, field: 'email' });
    }
    expect(isValidEmail('parent@invalid.example.com')).toBe(true);
  });
});

describe('look-alike e-mails and names', () => {
  it('refuses invisible and control characters in an e-mail or a name', () => {
    for (const email of [
      'vic\u200btim1@example.com',
      'a\u00adb@example.com',
      'a\u0000b@example.com',
      'a\ufeffb@example.com',
    ]) {
      expect(validateRegistration({ ...valid, email }, today)).toEqual({
        ok: false,
        field: 'email',
        message: 'Please enter a valid email address',
      });
    }
    for (const fullname of ['Asha\u200b Rao', 'Asha\u202eoaR', 'Asha\u0000']) {
      expect(validateRegistration({ ...valid, fullname }, today)).toEqual({
        ok: false,
        field: 'fullname',
        message: 'Full name must not contain invisible or control characters',
      });
    }
  });

  it('takes the joiners Indian scripts write letters with in a name, after a letter or sign of those scripts only', () => {
    // Malayalam's chillu (na, virama, ZWJ), Marathi's eyelash ra (ra, ZWJ, virama), a ZWNJ in Hindi.
    for (const fullname of [
      '\u0d05\u0d35\u0d28\u0d4d\u200d',
      '\u0d30\u200d\u0d4d\u092f',
      'Asha \u0915\u094d\u200c\u0937',
    ]) {
      expect(validateRegistration({ ...valid, fullname }, today)).toMatchObject({ ok: true });
    }
    // A joiner on its own, where no letter comes before it, or after a Latin letter, is as invisible as any.
    for (const fullname of [
      '\u200dAsha Rao',
      'Asha \u200cRao',
      'Asha\u200b\u200dRao',
      'As\u200dha Rao',
      'Asha Rao\u200c',
    ]) {
      expect(validateRegistration({ ...valid, fullname }, today)).toEqual({
        ok: false,
        field: 'fullname',
        message: 'Full name must not contain invisible or control characters',
      });
    }
    expect(validateRegistration({ ...valid, email: 'a\u200db@example.com' }, today)).toMatchObject({ ok: false });
  });

  it('stores one spelling (NFKC) for what looks the same', () => {
    const result = validateRegistration({ ...valid, email: 'ａｓｈａ@example.com', fullname: 'Ａｓｈａ  Rao' }, today);
    expect(result.ok && result.value.email).toBe('asha@example.com');
    expect(result.ok && result.value.fullname).toBe('Asha Rao');
  });
});
