import { describe, expect, it } from 'vitest';
import { mailFailureReason } from './mail-failure.ts';

describe('mailFailureReason', () => {
  it("keeps the mail server's reason and drops the addresses in it", () => {
    const refused = new Error(
      "Can't send mail - all recipients were rejected: 550 5.1.1 <riya.sharma+class@example.co.in>: Recipient address rejected",
    );
    expect(mailFailureReason(refused)).toBe(
      "Can't send mail - all recipients were rejected: 550 5.1.1 <<address>>: Recipient address rejected",
    );
    expect(mailFailureReason('Mailbox full for parent@example.com, try later')).toBe(
      // (A comma right after an address goes with it: more masked, never less.)
      'Mailbox full for <address> try later',
    );
    // Addresses the registration form accepts, however they are written.
    for (const address of ['"priya.sharma"@gmail.com', "priya'@gmail.com", 'a(b)@gmail.com', 'priya,x@gmail.com']) {
      expect(mailFailureReason(`550 <${address}>: rejected`)).toBe('550 <<address>>: rejected');
      expect(mailFailureReason(`550 ${address} rejected`)).toBe('550 <address> rejected');
    }
    expect(mailFailureReason(new Error('connect ECONNREFUSED 127.0.0.1:2525'))).toBe(
      'connect ECONNREFUSED 127.0.0.1:2525',
    );
    expect(mailFailureReason(new Error('x'.repeat(600)))).toHaveLength(500);
  });
});
