// What is logged and stored of a mail that could not be sent: the mail server's
// reason, without the addresses in it. A refusal quotes the recipient
// ("550 5.1.1 <child@example.com>: Recipient address rejected"), and logs and the
// queue's table must not keep a child's e-mail address (an erasure cannot reach a log).

// Any run of non-space characters with an @ in it: an address may be quoted, hold an
// apostrophe or a comma, or come in angle brackets, and a little too much masked is
// better than a child's address kept.
const ADDRESS = /[^\s<>]*@[^\s<>]*/g;

/** The error's text with every e-mail address replaced by `<address>`, at most 500 characters. */
export function mailFailureReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(ADDRESS, '<address>').slice(0, 500);
}
