import { parseSize } from '../../lib/http/size';

describe('parseSize', () => {
  it('reads plain digits as bytes', () => {
    expect(parseSize('0')).toBe(0);
    expect(parseSize('2048')).toBe(2048);
    expect(parseSize('007')).toBe(7);
  });

  it('multiplies by powers of 1024 for each suffix, in either case', () => {
    expect(parseSize('1k')).toBe(1024);
    expect(parseSize('1K')).toBe(1024);
    expect(parseSize('10M')).toBe(10 * 1024 ** 2);
    expect(parseSize('2g')).toBe(2 * 1024 ** 3);
    expect(parseSize('1T')).toBe(1024 ** 4);
    expect(parseSize('3p')).toBe(3 * 1024 ** 5);
  });

  it('turns sizes beyond Number.MAX_SAFE_INTEGER into Infinity', () => {
    expect(parseSize('7P')).toBe(7 * 1024 ** 5);
    expect(parseSize('8P')).toBe(Infinity); // 8 PiB is 2^53, one above Number.MAX_SAFE_INTEGER
    expect(parseSize('1E')).toBe(Infinity);
    expect(parseSize('1Y')).toBe(Infinity);
    expect(parseSize('99999999999999999999')).toBe(Infinity);
  });

  it('throws a RangeError naming the value and the format', () => {
    expect(() => parseSize('10MB')).toThrow(
      new RangeError('Invalid size "10MB": expected digits with an optional K, M, G, T, P, E, Z or Y suffix, e.g. 10M'),
    );
  });

  it('rejects everything outside [0-9]+[KkMmGgTtPpEeZzYy]?', () => {
    for (const text of ['', 'M', '-1', '1.5K', ' 10M', '10M ', '10 M', '1X', '1e3', '0x10', '１０']) {
      expect(() => parseSize(text)).toThrow(RangeError);
    }
  });
});
