import { BoundedBuffer, StreamOverflowError } from '../../lib/streaming/bounded-buffer';

const drain = (buffer: BoundedBuffer<number>) => {
  const out: number[] = [];
  while (buffer.size) out.push(buffer.shift()!);
  return out;
};

describe('BoundedBuffer', () => {
  it('fails on overflow under the fail policy', () => {
    const buffer = new BoundedBuffer<number>(2, 'fail');
    buffer.push(1);
    buffer.push(2);
    expect(() => buffer.push(3)).toThrow(StreamOverflowError);
  });

  it('applies drop-oldest, drop-newest and latest', () => {
    const cases: [ConstructorParameters<typeof BoundedBuffer>[1], number[]][] = [['drop-oldest', [3, 4]], ['drop-newest', [1, 2]], ['latest', [3, 4]]];
    for (const [policy, expected] of cases) {
      const buffer = new BoundedBuffer<number>(2, policy);
      [1, 2, 3, 4].forEach((n) => buffer.push(n));
      expect(drain(buffer)).toEqual(expected);
      expect(buffer.dropped).toBe(2);
    }
  });

  it('rejects a capacity below 1', () => {
    expect(() => new BoundedBuffer(0, 'fail')).toThrow(RangeError);
  });
});
