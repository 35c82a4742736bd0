import { EntityTag, GET, Path, PUT, RestRequest, RestResponse } from '../../lib';
import { buildApp, call } from '../support/app';

const MODIFIED = new Date(Date.UTC(2007, 11, 3, 10, 15, 30, 789));
const MODIFIED_TEXT = 'Mon, 03 Dec 2007 10:15:30 GMT';
const NOW = new Date(Date.UTC(2020, 0, 1));

function requestOf(method: string, headers: Record<string, string> = {}): RestRequest {
  return new RestRequest({ method, headers: new Headers(headers) }, () => NOW);
}

describe('RestRequest', () => {
  describe('evaluatePreconditions with a date and a tag', () => {
    it('lets the request proceed without conditional headers', () => {
      expect(requestOf('GET').evaluatePreconditions(MODIFIED, new EntityTag('v1'))).toBeUndefined();
    });

    it('answers 412 with the current ETag and an empty body when If-Match does not match (RFC 9110 §13.1.1)', () => {
      const response = requestOf('PUT', { 'If-Match': '"v1"' })
        .evaluatePreconditions(MODIFIED, new EntityTag('v2'))!
        .build();
      expect(response.status).toBe(412);
      expect(response.headers.get('etag')).toBe('"v2"');
      expect(response.headers.get('last-modified')).toBe(MODIFIED_TEXT);
      expect(response.entity).toBeUndefined();
    });

    it('reads unquoted tags leniently and matches lists and *', () => {
      expect(requestOf('PUT', { 'If-Match': 'v1' }).evaluatePreconditions(MODIFIED, 'v1')).toBeUndefined();
      expect(requestOf('PUT', { 'If-Match': '"a", "v1"' }).evaluatePreconditions(MODIFIED, 'v1')).toBeUndefined();
      expect(requestOf('PUT', { 'If-Match': '*' }).evaluatePreconditions(MODIFIED, 'v1')).toBeUndefined();
    });

    it('uses strong comparison for If-Match: a weak tag never matches (RFC 9110 §8.8.3.2)', () => {
      expect(
        requestOf('PUT', { 'If-Match': 'W/"v1"' }).evaluatePreconditions(new EntityTag('v1', true))?.build().status,
      ).toBe(412);
      expect(
        requestOf('PUT', { 'If-Match': '"v1"' }).evaluatePreconditions(new EntityTag('v1', true))?.build().status,
      ).toBe(412);
    });

    it('answers 304 for GET and HEAD, and 412 for other methods, when If-None-Match matches weakly (§13.1.2)', () => {
      for (const method of ['GET', 'HEAD']) {
        const response = requestOf(method, { 'If-None-Match': 'W/"v1"' })
          .evaluatePreconditions(MODIFIED, 'v1')!
          .build();
        expect(response.status).toBe(304);
        expect(response.headers.get('etag')).toBe('"v1"');
      }
      expect(requestOf('PUT', { 'If-None-Match': '"v1"' }).evaluatePreconditions(MODIFIED, 'v1')?.build().status).toBe(
        412,
      );
      expect(requestOf('PUT', { 'If-None-Match': '*' }).evaluatePreconditions(MODIFIED, 'v1')?.build().status).toBe(
        412,
      );
      expect(requestOf('GET', { 'If-None-Match': '"other"' }).evaluatePreconditions(MODIFIED, 'v1')).toBeUndefined();
    });

    it('answers 304 for If-Modified-Since equal to Last-Modified at one-second resolution (§13.1.3)', () => {
      const response = requestOf('GET', { 'If-Modified-Since': MODIFIED_TEXT })
        .evaluatePreconditions(MODIFIED, 'v1')!
        .build();
      expect(response.status).toBe(304);
      expect(response.headers.get('last-modified')).toBe(MODIFIED_TEXT);
      expect(
        requestOf('GET', { 'If-Modified-Since': 'Mon, 03 Dec 2007 10:15:29 GMT' }).evaluatePreconditions(MODIFIED),
      ).toBeUndefined();
    });

    it('ignores If-Modified-Since for methods other than GET and HEAD (deliberately following the RFC)', () => {
      expect(
        requestOf('PUT', { 'If-Modified-Since': MODIFIED_TEXT }).evaluatePreconditions(MODIFIED, 'v1'),
      ).toBeUndefined();
      expect(requestOf('POST', { 'If-Modified-Since': MODIFIED_TEXT }).evaluatePreconditions(MODIFIED)).toBeUndefined();
    });

    it('ignores If-Modified-Since when If-None-Match is present (§13.2.2 step 3)', () => {
      const headers = { 'If-None-Match': '"other"', 'If-Modified-Since': MODIFIED_TEXT };
      expect(requestOf('GET', headers).evaluatePreconditions(MODIFIED, 'v1')).toBeUndefined();
    });

    it('answers 412 for If-Unmodified-Since before Last-Modified, and ignores it under If-Match (§13.1.4)', () => {
      const stale = { 'If-Unmodified-Since': 'Mon, 03 Dec 2007 10:15:29 GMT' };
      expect(requestOf('PUT', stale).evaluatePreconditions(MODIFIED, 'v1')?.build().status).toBe(412);
      expect(
        requestOf('PUT', { 'If-Unmodified-Since': MODIFIED_TEXT }).evaluatePreconditions(MODIFIED, 'v1'),
      ).toBeUndefined();
      expect(requestOf('PUT', { ...stale, 'If-Match': '"v1"' }).evaluatePreconditions(MODIFIED, 'v1')).toBeUndefined();
    });

    it('evaluates If-Match before If-None-Match (§13.2.2 order)', () => {
      const headers = { 'If-Match': '"nope"', 'If-None-Match': '"v1"' };
      expect(requestOf('GET', headers).evaluatePreconditions(MODIFIED, 'v1')?.build().status).toBe(412);
    });

    it('ignores invalid and future dates', () => {
      expect(requestOf('GET', { 'If-Modified-Since': 'yesterday' }).evaluatePreconditions(MODIFIED)).toBeUndefined();
      expect(
        requestOf('GET', { 'If-Modified-Since': 'Thu, 01 Jan 2099 00:00:00 GMT' }).evaluatePreconditions(MODIFIED),
      ).toBeUndefined();
    });
  });

  describe('evaluatePreconditions with one argument', () => {
    it('compares dates only when given a Date', () => {
      expect(
        requestOf('GET', { 'If-Modified-Since': MODIFIED_TEXT }).evaluatePreconditions(MODIFIED)?.build().status,
      ).toBe(304);
      expect(requestOf('GET', { 'If-Match': '"v1"' }).evaluatePreconditions(MODIFIED)?.build().status).toBe(412);
    });

    it('compares tags only when given a tag', () => {
      const response = requestOf('GET', { 'If-None-Match': '"v1"', 'If-Modified-Since': MODIFIED_TEXT })
        .evaluatePreconditions('v1')!
        .build();
      expect(response.status).toBe(304);
      expect(response.headers.has('last-modified')).toBe(false);
      expect(requestOf('GET', { 'If-Modified-Since': MODIFIED_TEXT }).evaluatePreconditions('v1')).toBeUndefined();
    });

    it('throws for a tag text an entity tag cannot carry', () => {
      expect(() => requestOf('GET').evaluatePreconditions('a"b')).toThrow(TypeError);
    });
  });

  describe('evaluatePreconditions without arguments', () => {
    it('treats the resource as absent: If-Match fails and If-None-Match: * passes', () => {
      expect(requestOf('PUT', { 'If-Match': '*' }).evaluatePreconditions()?.build().status).toBe(412);
      expect(requestOf('PUT', { 'If-None-Match': '*' }).evaluatePreconditions()).toBeUndefined();
      expect(requestOf('PUT').evaluatePreconditions()).toBeUndefined();
    });
  });

  describe('injection', () => {
    it('is injected into resource methods by its type, answering from the real request', async () => {
      const modified = new Date(Date.UTC(2021, 5, 1, 12, 0, 0, 500));
      @Path('doc')
      class Doc {
        @GET get(request: RestRequest) {
          const early = request.evaluatePreconditions(modified, 'v7');
          if (early) return early.build();
          return RestResponse.ResponseBuilder.ok('text').tag('v7').lastModified(modified).build();
        }
        @PUT put(request: RestRequest) {
          return request.evaluatePreconditions(modified, 'v7')?.build() ?? RestResponse.ok(`${request.method} ok`);
        }
      }
      const app = buildApp([Doc]);
      const first = await call(app, '/doc');
      expect(first.status).toBe(200);
      expect(first.headers.get('etag')).toBe('"v7"');
      const lastModified = first.headers.get('last-modified')!;
      const notModified = await call(app, '/doc', { headers: { 'If-Modified-Since': lastModified } });
      expect(notModified.status).toBe(304);
      expect(await notModified.text()).toBe('');
      const stale = await call(app, '/doc', { method: 'PUT', headers: { 'If-Match': 'v6' } });
      expect(stale.status).toBe(412);
      expect(stale.headers.get('etag')).toBe('"v7"');
      expect(await stale.text()).toBe('');
      expect(await (await call(app, '/doc', { method: 'PUT', headers: { 'If-Match': 'v7' } })).text()).toBe('PUT ok');
    });
  });
});
