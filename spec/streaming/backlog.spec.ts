import { Backlog, StreamOverflowError, type OverflowPolicy } from '../../lib/streaming/backlog';

/** A backlog joining like a JSON array's writer: a comma before every item but the first written. */
function arrayBacklog(budget: number, policy: OverflowPolicy): Backlog {
  let written = 0;
  return new Backlog(budget, policy, (frame) => (written++ === 0 ? frame : `,${frame}`));
}

const drain = (backlog: Backlog) => {
  let out = '';
  for (let frame = backlog.shift(); frame !== undefined; frame = backlog.shift())
    out += typeof frame === 'string' ? frame : Buffer.from(frame).toString();
  return out;
};

describe('Backlog', () => {
  it('fails past its byte budget under fail, with a message naming the setting and the budget', () => {
    const backlog = arrayBacklog(20, 'fail');
    backlog.push('1234567890', 0);
    backlog.push('1234567890', 0);
    expect(() => backlog.push('1', 0)).toThrow(StreamOverflowError);
    expect(() => backlog.push('1', 0)).toThrow(
      /more than 20 ahead of its client \(framework\.rest\.stream\.buffer-size/,
    );
  });

  it('counts what the socket already holds against the budget', () => {
    const backlog = arrayBacklog(20, 'fail');
    backlog.push('12345', 10);
    expect(() => backlog.push('123456', 10)).toThrow(StreamOverflowError);
  });

  it('names the budget as a size', () => {
    expect(new StreamOverflowError(64 * 1024 * 1024).message).toContain('more than 64M ahead');
  });

  it('drops item by item and keeps a JSON array well formed whichever items go', () => {
    const cases: [OverflowPolicy, string][] = [
      ['drop-oldest', '"c","d"'],
      ['drop-newest', '"a","b"'],
      // c found the budget spent and dropped everything before it; d fitted beside it.
      ['latest', '"c","d"'],
    ];
    for (const [policy, expected] of cases) {
      const backlog = arrayBacklog(6, policy);
      for (const item of ['"a"', '"b"', '"c"', '"d"']) backlog.push(item, 0);
      expect([policy, `${drain(backlog)}`]).toEqual([policy, expected]);
      expect(backlog.dropped).toBe(2);
    }
  });

  it('joins small frames under fail into 16 KB chunks of bytes, in order, and counts their bytes', () => {
    const backlog = arrayBacklog(1 << 20, 'fail');
    for (let i = 0; i < 5000; i++) backlog.push(`${i}`, 0);
    const expected = Array.from({ length: 5000 }, (_, i) => i).join(',');
    expect(backlog.bytes).toBe(expected.length);
    expect(drain(backlog)).toBe(expected);
    expect(backlog.bytes).toBe(0);
    expect(backlog.empty).toBe(true);
  });
});
