import { formatContentRange, parseRange } from '../../lib/http/range';

describe('parseRange', () => {
  it('reads first-last, open-ended and suffix ranges (A8)', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=10-', 100)).toEqual({ start: 10, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
  });

  it('clamps the end to the last byte', () => {
    expect(parseRange('bytes=90-1000', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
  });

  it('reads a single byte and the last byte', () => {
    expect(parseRange('bytes=0-0', 1)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=99-', 100)).toEqual({ start: 99, end: 99 });
  });

  it('is case-insensitive in the unit and tolerates list whitespace and empty members', () => {
    expect(parseRange('Bytes= 0-9 ,', 100)).toEqual({ start: 0, end: 9 });
  });

  it('returns undefined for an absent header', () => {
    expect(parseRange(undefined, 100)).toBeUndefined();
    expect(parseRange(null, 100)).toBeUndefined();
  });

  it('returns undefined for unsatisfiable ranges', () => {
    expect(parseRange('bytes=100-', 100)).toBeUndefined();
    expect(parseRange('bytes=101-', 100)).toBeUndefined();
    expect(parseRange('bytes=-0', 100)).toBeUndefined();
    expect(parseRange('bytes=0-9', 0)).toBeUndefined();
  });

  it('returns undefined for several ranges, which are answered with the whole body', () => {
    expect(parseRange('bytes=0-1, 3-4', 100)).toBeUndefined();
  });

  it('returns undefined for malformed ranges', () => {
    const malformed = [
      'bytes=9-0',
      'bytes=',
      'bytes=-',
      'bytes=a-b',
      'bytes=1.5-2',
      'bytes=--1',
      'items=0-9',
      'bytes 0-9',
      '0-9',
      'bytes=0-9x',
    ];
    for (const header of malformed) expect(parseRange(header, 100)).toBeUndefined();
  });
});

describe('formatContentRange', () => {
  it('writes bytes first-last/size', () => {
    expect(formatContentRange(0, 9, 100)).toBe('bytes 0-9/100');
    expect(formatContentRange(99, 99, 100)).toBe('bytes 99-99/100');
  });

  it('throws a RangeError for ranges outside the representation', () => {
    for (const [start, end, size] of [
      [-1, 9, 100],
      [10, 9, 100],
      [0, 100, 100],
      [0.5, 9, 100],
      [0, 0, 0],
    ]) {
      expect(() => formatContentRange(start, end, size)).toThrow(RangeError);
    }
  });
});
