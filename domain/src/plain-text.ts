// Text an admin types that students read elsewhere (an assessment's title in a mail
// and on the progress page, a teacher's name or a holiday in a calendar app).

/**
 * Control characters (a line break inside a one-line field) and the marks that turn
 * the direction of the text around (U+202E makes "3 tset tinU" of what follows):
 * either would make a title show something else than was typed. Joiners stay, which
 * Indian scripts use.
 */
const CONTROL_OR_DIRECTION = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

export function hasControlCharacters(value: string): boolean {
  return CONTROL_OR_DIRECTION.test(value);
}

/**
 * C0 controls but tab, line feed and carriage return, and DEL: what no request and no
 * line of a text file means (a NUL byte above all, which PostgreSQL refuses).
 */
// eslint-disable-next-line no-control-regex -- finding them is the point
const STRAY_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Whether a text has a stray control character (`search` ignores the pattern's global state). */
export const hasStrayControl = (text: string): boolean => text.search(STRAY_CONTROLS) !== -1;

/** The text with each stray control character shown as �. */
export const showStrayControls = (text: string): string => text.replace(STRAY_CONTROLS, '\uFFFD');

/** Letters that show as blank (the Hangul fillers): as invisible as a zero-width space. */
export const BLANK_LETTERS = '\u115F\u1160\u3164\uFFA0';

/** Something that shows: not a space, nothing invisible, no lone accent, no blank letter or braille cell. */
const VISIBLE = new RegExp(`[^\\s\\p{C}\\p{M}\\u2800${BLANK_LETTERS}]`, 'u');

/**
 * Whether a text shows nothing at all: empty, spaces, or only characters of no look of
 * their own (a zero-width space, a joiner, a lone accent, a Hangul filler, a blank braille
 * cell). Such a teacher's name or title would be an empty line in a calendar or a mail.
 */
export function showsNothing(value: string): boolean {
  return !VISIBLE.test(value);
}

/**
 * A typed one-line text as it is checked and stored: composed (NFC, so that "é" typed as a
 * letter and an accent is one character, as it shows, and counts once against a limit) and
 * trimmed; anything but a string is empty.
 */
export function typedText(value: unknown): string {
  return typeof value === 'string' ? value.normalize('NFC').trim() : '';
}
