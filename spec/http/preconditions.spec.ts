import { EntityTag } from '../../lib/http/entity-tag';
import { formatHttpDate } from '../../lib/http/http-date';
import { evaluatePreconditions, type CurrentRepresentation } from '../../lib/http/preconditions';

const NOW = new Date(Date.UTC(2024, 0, 10, 12, 0, 0));
const LAST_MODIFIED = new Date(Date.UTC(2007, 11, 3, 10, 15, 30, 450)); // millis are truncated
const LAST_MODIFIED_TEXT = 'Mon, 03 Dec 2007 10:15:30 GMT';
const CURRENT: CurrentRepresentation = { etag: new EntityTag('v1'), lastModified: LAST_MODIFIED };
const VALIDATORS = { ETag: '"v1"', 'Last-Modified': LAST_MODIFIED_TEXT };

/** `null` stands for "no current representation" (undefined would select the default). */
const evaluate = (method: string, headers: Record<string, string>, current: CurrentRepresentation | null = CURRENT) =>
  evaluatePreconditions({ method, headers: new Headers(headers) }, current ?? undefined, NOW);

describe('evaluatePreconditions', () => {
  it('lets an unconditional request proceed', () => {
    expect(evaluate('GET', {})).toBeUndefined();
    expect(evaluate('PUT', {}, null)).toBeUndefined();
  });

  describe('If-Match', () => {
    it('proceeds on a strong match, quoted or lenient, anywhere in the list', () => {
      expect(evaluate('PUT', { 'If-Match': '"v0", "v1"' })).toBeUndefined();
      expect(evaluate('PUT', { 'If-Match': 'v1' })).toBeUndefined();
    });

    it('fails with 412 and the current validators when no tag matches (A15 stale PUT)', () => {
      const current = { etag: new EntityTag('v2'), lastModified: LAST_MODIFIED };
      expect(evaluate('PUT', { 'If-Match': 'v1' }, current)).toEqual({
        status: 412,
        headers: { ETag: '"v2"', 'Last-Modified': LAST_MODIFIED_TEXT },
      });
    });

    it('uses strong comparison, so weak tags never match', () => {
      expect(evaluate('PUT', { 'If-Match': 'W/"v1"' })?.status).toBe(412);
      expect(evaluate('PUT', { 'If-Match': '"v1"' }, { etag: new EntityTag('v1', true) })?.status).toBe(412);
    });

    it('matches "*" only when a current representation exists', () => {
      expect(evaluate('PUT', { 'If-Match': '*' }, {})).toBeUndefined();
      expect(evaluate('PUT', { 'If-Match': '*' }, null)).toEqual({ status: 412, headers: {} });
    });

    it('fails when the representation has no entity tag', () => {
      expect(evaluate('PUT', { 'If-Match': '"v1"' }, { lastModified: LAST_MODIFIED })?.status).toBe(412);
    });

    it('takes precedence over If-Unmodified-Since, which is then ignored', () => {
      expect(
        evaluate('PUT', { 'If-Match': '"v1"', 'If-Unmodified-Since': 'Sun, 06 Nov 1994 08:49:37 GMT' }),
      ).toBeUndefined();
    });
  });

  describe('If-Unmodified-Since', () => {
    it('fails with 412 when the resource changed after the date', () => {
      expect(evaluate('PUT', { 'If-Unmodified-Since': 'Mon, 03 Dec 2007 10:15:29 GMT' })).toEqual({
        status: 412,
        headers: VALIDATORS,
      });
    });

    it('proceeds when the date equals Last-Modified at one-second resolution, or is later', () => {
      expect(evaluate('PUT', { 'If-Unmodified-Since': LAST_MODIFIED_TEXT })).toBeUndefined();
      expect(evaluate('DELETE', { 'If-Unmodified-Since': 'Tue, 04 Dec 2007 00:00:00 GMT' })).toBeUndefined();
    });

    it('is ignored when the date is invalid or there is no modification date', () => {
      expect(evaluate('PUT', { 'If-Unmodified-Since': 'yesterday' })).toBeUndefined();
      expect(
        evaluate('PUT', { 'If-Unmodified-Since': 'Sun, 06 Nov 1994 08:49:37 GMT' }, { etag: new EntityTag('v1') }),
      ).toBeUndefined();
    });
  });

  describe('If-None-Match', () => {
    it('answers 304 with the validators for GET and HEAD when a tag matches weakly', () => {
      expect(evaluate('GET', { 'If-None-Match': '"v1"' })).toEqual({ status: 304, headers: VALIDATORS });
      expect(evaluate('HEAD', { 'If-None-Match': 'W/"v1"' })).toEqual({ status: 304, headers: VALIDATORS });
      expect(evaluate('GET', { 'If-None-Match': '"v0", "v1"' }, { etag: new EntityTag('v1', true) })?.status).toBe(304);
    });

    it('answers 412 for other methods', () => {
      expect(evaluate('PUT', { 'If-None-Match': '"v1"' })).toEqual({ status: 412, headers: VALIDATORS });
    });

    it('proceeds when no tag matches or the representation has none', () => {
      expect(evaluate('GET', { 'If-None-Match': '"v2"' })).toBeUndefined();
      expect(evaluate('GET', { 'If-None-Match': '"v1"' }, { lastModified: LAST_MODIFIED })).toBeUndefined();
    });

    it('fails for "*" only when a representation exists (create-only PUT)', () => {
      expect(evaluate('PUT', { 'If-None-Match': '*' }, null)).toBeUndefined();
      expect(evaluate('PUT', { 'If-None-Match': '*' }, {})).toEqual({ status: 412, headers: {} });
    });

    it('makes If-Modified-Since ignored even when it would give 304', () => {
      expect(evaluate('GET', { 'If-None-Match': '"v2"', 'If-Modified-Since': LAST_MODIFIED_TEXT })).toBeUndefined();
    });

    it('is evaluated after a passing If-Match', () => {
      expect(evaluate('PUT', { 'If-Match': '"v1"', 'If-None-Match': '"v1"' })?.status).toBe(412);
    });
  });

  describe('If-Modified-Since', () => {
    it('answers 304 when the date equals the truncated Last-Modified (A15)', () => {
      expect(evaluate('GET', { 'If-Modified-Since': formatHttpDate(LAST_MODIFIED) })).toEqual({
        status: 304,
        headers: VALIDATORS,
      });
    });

    it('answers 304 for a later date and proceeds for an earlier one', () => {
      expect(evaluate('HEAD', { 'If-Modified-Since': 'Tue, 04 Dec 2007 00:00:00 GMT' })?.status).toBe(304);
      expect(evaluate('GET', { 'If-Modified-Since': 'Mon, 03 Dec 2007 10:15:29 GMT' })).toBeUndefined();
    });

    it('reads the obsolete date forms', () => {
      expect(evaluate('GET', { 'If-Modified-Since': 'Monday, 03-Dec-07 10:15:30 GMT' })?.status).toBe(304);
      expect(evaluate('GET', { 'If-Modified-Since': 'Mon Dec  3 10:15:30 2007' })?.status).toBe(304);
    });

    it('applies only to GET and HEAD', () => {
      expect(evaluate('POST', { 'If-Modified-Since': LAST_MODIFIED_TEXT })).toBeUndefined();
    });

    it('is ignored when invalid, in the future, or without a modification date', () => {
      expect(evaluate('GET', { 'If-Modified-Since': 'not a date' })).toBeUndefined();
      expect(
        evaluate('GET', { 'If-Modified-Since': formatHttpDate(new Date(NOW.getTime() + 60_000)) }),
      ).toBeUndefined();
      expect(
        evaluate('GET', { 'If-Modified-Since': LAST_MODIFIED_TEXT }, { etag: new EntityTag('v1') }),
      ).toBeUndefined();
    });

    it('carries only the validators that are known', () => {
      expect(evaluate('GET', { 'If-Modified-Since': LAST_MODIFIED_TEXT }, { lastModified: LAST_MODIFIED })).toEqual({
        status: 304,
        headers: { 'Last-Modified': LAST_MODIFIED_TEXT },
      });
    });
  });

  it('follows the A15 sequence: fresh GET, revalidation, stale PUT', () => {
    const v1 = { etag: new EntityTag('v1'), lastModified: LAST_MODIFIED };
    expect(evaluate('GET', {}, v1)).toBeUndefined();
    expect(evaluate('GET', { 'If-Modified-Since': LAST_MODIFIED_TEXT }, v1)?.status).toBe(304);
    const v2 = { etag: new EntityTag('v2'), lastModified: new Date(LAST_MODIFIED.getTime() + 5000) };
    expect(evaluate('PUT', { 'If-Match': 'v1' }, v2)).toEqual({
      status: 412,
      headers: { ETag: '"v2"', 'Last-Modified': 'Mon, 03 Dec 2007 10:15:35 GMT' },
    });
  });

  it('uses the current time when none is given', () => {
    const future = formatHttpDate(new Date(Date.now() + 3_600_000));
    const request = { method: 'GET', headers: new Headers({ 'If-Modified-Since': future }) };
    expect(evaluatePreconditions(request, CURRENT)).toBeUndefined();
  });
});
