// The six-digit one-time codes in what the site sends (SMS, mails, the outbox).

const CODE = /(?<!\d)\d{6}(?!\d)/g;

/** Whether a text carries exactly one six-digit code. */
export function hasCode(text: string): boolean {
  return (text.match(CODE) ?? []).length === 1;
}

/** The six-digit code in a text (exactly one run of six digits). */
export function codeIn(text: string): string {
  const runs = text.match(CODE) ?? [];
  if (runs.length !== 1) throw new Error(`expected exactly one six-digit code in: ${text}`);
  return runs[0];
}

/** A raw mail's body as one text: headers and quoted-printable soft line breaks left out. */
export function mailBody(raw: string): string {
  return raw.slice(raw.search(/\r?\n\r?\n/)).replace(/=\r?\n/g, '');
}

/** The code in a raw mail's body. */
export function mailCode(raw: string): string {
  return codeIn(mailBody(raw));
}

/** A six-digit code different from `code`. */
export function wrongCode(code: string): string {
  return String(((Number(code) - 100000 + 1) % 900000) + 100000);
}
