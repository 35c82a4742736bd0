import { formatCacheControl } from '../../lib/http/cache-control';

describe('formatCacheControl', () => {
  it('writes the A8 example exactly', () => {
    expect(formatCacheControl({ private: true, maxAge: 42, noTransform: true })).toBe(
      'no-transform, max-age=42, private',
    );
  });

  it('writes every directive in a stable order', () => {
    expect(
      formatCacheControl({
        immutable: true,
        public: true,
        private: true,
        sMaxAge: 7,
        maxAge: 0,
        proxyRevalidate: true,
        mustRevalidate: true,
        noTransform: true,
        noStore: true,
        noCache: true,
      }),
    ).toBe(
      'no-cache, no-store, no-transform, must-revalidate, proxy-revalidate, max-age=0, s-maxage=7, private, public, immutable',
    );
  });

  it('writes @Cache(maxAge=123) and @NoCache forms (A9)', () => {
    expect(formatCacheControl({ maxAge: 123 })).toBe('max-age=123');
    expect(formatCacheControl({ noCache: true })).toBe('no-cache');
  });

  it('qualifies no-cache and private with quoted field lists', () => {
    expect(formatCacheControl({ noCache: ['foo'] })).toBe('no-cache="foo"');
    expect(formatCacheControl({ private: ['Set-Cookie', 'X-Id'] })).toBe('private="Set-Cookie, X-Id"');
    expect(formatCacheControl({ noCache: [] })).toBe('no-cache');
  });

  it('omits false and absent directives', () => {
    expect(formatCacheControl({})).toBe('');
    expect(formatCacheControl({ noCache: false, noStore: false, private: false })).toBe('');
  });

  it('throws a RangeError for a negative or fractional age', () => {
    expect(() => formatCacheControl({ maxAge: -1 })).toThrow(RangeError);
    expect(() => formatCacheControl({ sMaxAge: 1.5 })).toThrow(RangeError);
    expect(() => formatCacheControl({ maxAge: Infinity })).toThrow(RangeError);
  });

  it('throws a TypeError for a field name that is not a token', () => {
    expect(() => formatCacheControl({ noCache: ['a", b'] })).toThrow(TypeError);
  });
});
