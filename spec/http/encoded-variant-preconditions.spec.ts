import { acceptsCoding } from '../../lib/http/content-coding';
import { EntityTag, variantTag } from '../../lib/http/entity-tag';
import { evaluatePreconditions, ifRangeMatches, type CurrentRepresentation } from '../../lib/http/preconditions';

const LAST_MODIFIED = new Date(Date.UTC(2007, 11, 3, 10, 15, 30, 450));
const CURRENT: CurrentRepresentation = { etag: new EntityTag('v1'), lastModified: LAST_MODIFIED };

const evaluate = (method: string, headers: Record<string, string>, current: CurrentRepresentation = CURRENT) =>
  evaluatePreconditions({ method, headers: new Headers(headers) }, current);

describe('variantTag', () => {
  it('appends the coding to the value and keeps the weakness', () => {
    expect(variantTag(new EntityTag('v57'), 'gzip').toString()).toBe('"v57-gzip"');
    expect(variantTag(new EntityTag('v57', true), 'br').toString()).toBe('W/"v57-br"');
  });
});

describe('acceptsCoding', () => {
  it('takes a coding listed or matched by * with a weight above 0, and none without the header', () => {
    expect(acceptsCoding('gzip, br;q=0', 'gzip')).toBe(true);
    expect(acceptsCoding('gzip, br;q=0', 'br')).toBe(false);
    expect(acceptsCoding('*;q=0.5', 'deflate')).toBe(true);
    expect(acceptsCoding('x-gzip', 'gzip')).toBe(true);
    expect(acceptsCoding(null, 'gzip')).toBe(false);
  });
});

describe('evaluatePreconditions with encoded variants', () => {
  it('answers 304 with the variant tag for If-None-Match naming a variant the client still takes', () => {
    expect(evaluate('GET', { 'If-None-Match': '"v1-gzip"', 'Accept-Encoding': 'gzip' })).toMatchObject({
      status: 304,
      headers: { ETag: '"v1-gzip"' },
    });
    expect(evaluate('GET', { 'If-None-Match': '"v1-gzip"', 'Accept-Encoding': 'br' })).toBeUndefined();
    expect(evaluate('GET', { 'If-None-Match': '"v1-gzip"' })).toBeUndefined();
    expect(evaluate('GET', { 'If-None-Match': '"v1-zstd"', 'Accept-Encoding': 'zstd' })).toBeUndefined();
  });

  it('takes a variant tag in If-Match (the same state), strongly compared', () => {
    expect(evaluate('PUT', { 'If-Match': '"v1-br"' })).toBeUndefined();
    expect(evaluate('PUT', { 'If-Match': 'W/"v1-br"' })?.status).toBe(412);
    expect(evaluate('PUT', { 'If-Match': '"v0-br"' })?.status).toBe(412);
  });

  it('answers 412 to an unsafe method with the current tag, not the variant it matched', () => {
    expect(evaluate('PUT', { 'If-None-Match': '"v1-gzip"', 'Accept-Encoding': 'gzip' })).toMatchObject({
      status: 412,
      headers: { ETag: '"v1"' },
    });
  });
});

describe('ifRangeMatches', () => {
  it('lets a range through without If-Range', () => {
    expect(ifRangeMatches(null, CURRENT)).toBe(true);
  });

  it('needs a strong match with the identity tag: a variant, weak or other tag sends the whole body', () => {
    expect(ifRangeMatches('"v1"', CURRENT)).toBe(true);
    expect(ifRangeMatches('"v1-gzip"', CURRENT)).toBe(false);
    expect(ifRangeMatches('W/"v1"', CURRENT)).toBe(false);
    expect(ifRangeMatches('"v1"', { etag: new EntityTag('v1', true) })).toBe(false);
    expect(ifRangeMatches('"v2"', CURRENT)).toBe(false);
    expect(ifRangeMatches('"v1"', undefined)).toBe(false);
  });

  it('takes a date equal to Last-Modified at one-second resolution, and nothing else', () => {
    expect(ifRangeMatches('Mon, 03 Dec 2007 10:15:30 GMT', CURRENT)).toBe(true);
    expect(ifRangeMatches('Mon, 03 Dec 2007 10:15:31 GMT', CURRENT)).toBe(false);
    expect(ifRangeMatches('Mon, 03 Dec 2007 10:15:30 GMT', { etag: new EntityTag('v1') })).toBe(false);
    expect(ifRangeMatches('not a date', CURRENT)).toBe(false);
  });
});
