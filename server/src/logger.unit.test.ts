import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

describe('the logger', () => {
  it('never writes a password, a code or a token, should a line ever carry one', () => {
    const lines: string[] = [];
    const capture = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', capture);
    logger.info(
      {
        password: 'hunter22-secret',
        body: { otp: '123456', newPassword: 'another-secret', grade: 7 },
        req: { method: 'POST', headers: { authorization: 'Bearer r:live-token', 'user-agent': 'x' } },
        sessionToken: 'r:other-token',
      },
      'a line',
    );
    const [line] = lines;
    for (const secret of ['hunter22-secret', '123456', 'another-secret', 'r:live-token', 'r:other-token']) {
      expect(line).not.toContain(secret);
    }
    expect(JSON.parse(line!)).toMatchObject({ msg: 'a line', body: { grade: 7 }, req: { method: 'POST' } });
  });
});
