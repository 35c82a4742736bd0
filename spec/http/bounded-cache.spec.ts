import { memoize } from '../../lib/http/bounded-cache';

describe('memoize', () => {
  it('parses each distinct string once and returns the same result', () => {
    const parse = jest.fn((text: string) => ({ text }));
    const cached = memoize(10, parse);
    const first = cached('a');
    expect(cached('a')).toBe(first);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('caches undefined results too', () => {
    const parse = jest.fn((): undefined => undefined);
    const cached = memoize(10, parse);
    cached('x');
    cached('x');
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('clears itself when full, so it never holds more than the limit', () => {
    const parse = jest.fn((text: string) => text.length);
    const cached = memoize(2, parse);
    cached('a');
    cached('bb');
    cached('ccc'); // full: cleared, then holds only 'ccc'
    cached('a');
    expect(parse).toHaveBeenCalledTimes(4);
    cached('ccc');
    expect(parse).toHaveBeenCalledTimes(4);
  });
});
