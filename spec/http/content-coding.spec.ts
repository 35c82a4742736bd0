import { negotiateEncoding } from '../../lib/http/content-coding';

const SERVER = ['br', 'gzip', 'deflate'];

describe('negotiateEncoding', () => {
  it('does not encode when the client sends no Accept-Encoding', () => {
    expect(negotiateEncoding(undefined, SERVER)).toBeUndefined();
    expect(negotiateEncoding(null, SERVER)).toBeUndefined();
  });

  it('does not encode for an empty Accept-Encoding (identity only, RFC 9110 §12.5.3)', () => {
    expect(negotiateEncoding('', SERVER)).toBeUndefined();
  });

  it('breaks ties of client weight by server preference', () => {
    expect(negotiateEncoding('gzip, deflate, br', SERVER)).toBe('br');
    expect(negotiateEncoding('deflate, gzip', SERVER)).toBe('gzip');
  });

  it('prefers the client weight over server preference', () => {
    expect(negotiateEncoding('br;q=0.5, gzip;q=1.0', SERVER)).toBe('gzip');
  });

  it('never picks a coding with q=0 or one not listed', () => {
    expect(negotiateEncoding('gzip;q=0, deflate', SERVER)).toBe('deflate');
    expect(negotiateEncoding('compress', SERVER)).toBeUndefined();
    expect(negotiateEncoding('gzip;q=0', SERVER)).toBeUndefined();
  });

  it('gives unlisted codings the weight of "*"', () => {
    expect(negotiateEncoding('*', SERVER)).toBe('br');
    expect(negotiateEncoding('br;q=0, *;q=0.5', SERVER)).toBe('gzip');
    expect(negotiateEncoding('*;q=0.2, deflate;q=0.5', SERVER)).toBe('deflate');
    expect(negotiateEncoding('*;q=0', SERVER)).toBeUndefined();
  });

  it("treats x-gzip as gzip and returns the server's name", () => {
    expect(negotiateEncoding('x-gzip', SERVER)).toBe('gzip');
    expect(negotiateEncoding('X-GZIP;q=0.5', ['GZip'])).toBe('GZip');
  });

  it('is case-insensitive', () => {
    expect(negotiateEncoding('GZIP', SERVER)).toBe('gzip');
  });

  it('keeps the response unencoded when the client prefers identity explicitly', () => {
    expect(negotiateEncoding('identity;q=1, gzip;q=0.5', SERVER)).toBeUndefined();
    expect(negotiateEncoding('identity;q=0.5, gzip', SERVER)).toBe('gzip');
    expect(negotiateEncoding('identity;q=0, gzip', SERVER)).toBe('gzip');
  });

  it('never returns identity even when the server lists it', () => {
    expect(negotiateEncoding('identity', ['identity'])).toBeUndefined();
  });

  it('skips malformed members and keeps the first weight of a repeated coding', () => {
    expect(negotiateEncoding('gzip;q=2, ;;, deflate;q=abc, br;q=0.1', SERVER)).toBe('br');
    expect(negotiateEncoding('gzip;q=0, gzip;q=1', SERVER)).toBeUndefined();
  });

  it('returns undefined when the server supports nothing', () => {
    expect(negotiateEncoding('gzip', [])).toBeUndefined();
  });
});
