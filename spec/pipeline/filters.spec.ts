import { EMPTY, filter, map, of, tap, timer, type MonoTypeOperatorFunction } from 'rxjs';
import {
  GET,
  NameBinding,
  Path,
  POST,
  PreMatching,
  Priority,
  Provider,
  RequestContext,
  ResponseContext,
  RestResponse,
  ServerExceptionMapper,
  ServerRequestFilter,
  ServerResponseFilter,
  BadRequestException,
  logging,
  type LogRecord,
} from '../../lib';
import { buildApp, call } from '../support/app';

const Audited = NameBinding('Audited');

describe('request and response filters', () => {
  const trail: string[] = [];

  class Filters {
    @ServerRequestFilter({ priority: 20 }) second(ctx: RequestContext) {
      trail.push(`second:${ctx.method}`);
    }
    @ServerRequestFilter({ priority: 10 }) first() {
      trail.push('first');
    }
    @ServerRequestFilter() async asyncOne(ctx: RequestContext) {
      if (ctx.header('x-block') === 'promise') return RestResponse.status(401, 'blocked by promise');
      return undefined;
    }
    @ServerRequestFilter() observable(ctx: RequestContext) {
      return of(ctx.header('x-block') === 'observable' ? RestResponse.status(402, 'blocked by observable') : undefined);
    }
    @ServerRequestFilter({ preMatching: true }) rewrite(ctx: RequestContext) {
      if (ctx.rawPath === '/old') ctx.setRequestUri('/plain/renamed?via=pre-match');
      if (ctx.header('x-method')) ctx.setMethod(ctx.header('x-method')!);
      ctx.setHeader('x-added', 'by-pre-matching');
    }
    @ServerResponseFilter() stamp(request: RequestContext, response: ResponseContext, error: Error | undefined) {
      response.headers.set('x-filtered', error ? `error:${error.message}` : 'ok');
    }
    @ServerResponseFilter() @Audited audit(_request: RequestContext, response: ResponseContext) {
      response.headers.set('x-audited', 'yes');
    }
  }

  @Path('plain')
  class Plain {
    @GET get() {
      return 'plain';
    }
    @GET @Path('renamed') renamed(ctx: RequestContext) {
      return `${ctx.query.get('via')} ${ctx.header('x-added')}`;
    }
    @POST posted() {
      return 'posted';
    }
    @GET @Path('fail') fail(): string {
      throw new BadRequestException('bad');
    }
    @GET @Path('mapped') mapped(): string {
      throw new RangeError('out of range');
    }
    @ServerExceptionMapper() range(error: RangeError) {
      return RestResponse.status(422, `mapped ${error.message}`);
    }
  }

  @Path('audited')
  @Audited
  class AuditedResource {
    @GET get() {
      return 'audited';
    }
  }

  const app = buildApp([Filters, Plain, AuditedResource]);
  beforeEach(() => (trail.length = 0));

  it('runs request filters in priority order before the method', async () => {
    expect(await (await call(app, '/plain')).text()).toBe('plain');
    expect(trail).toEqual(['first', 'second:GET']);
  });

  it('answers with the response a filter returns, through a Promise or an Observable too', async () => {
    const byPromise = await call(app, '/plain', { headers: { 'x-block': 'promise' } });
    expect(byPromise.status).toBe(401);
    expect(await byPromise.text()).toBe('blocked by promise');
    const byObservable = await call(app, '/plain', { headers: { 'x-block': 'observable' } });
    expect(byObservable.status).toBe(402);
    expect(byObservable.headers.get('x-filtered')).toBe('ok');
  });

  it('lets pre-matching filters change the URI, method and headers before routing', async () => {
    expect(await (await call(app, '/old')).text()).toBe('pre-match by-pre-matching');
    expect(await (await call(app, '/plain', { headers: { 'x-method': 'POST' } })).text()).toBe('posted');
  });

  it('runs response filters after handled and mapped exceptions, giving them the error', async () => {
    const failed = await call(app, '/plain/fail');
    expect(failed.status).toBe(400);
    expect(failed.headers.get('x-filtered')).toBe('error:bad');
    const mapped = await call(app, '/plain/mapped');
    expect(mapped.status).toBe(422);
    expect(mapped.headers.get('x-filtered')).toBe('error:out of range');
  });

  it('runs unbound response filters after routing errors too', async () => {
    expect((await call(app, '/nowhere')).headers.get('x-filtered')).toBe('error:No resource matches GET /nowhere');
  });

  it('applies name-bound filters only to resources carrying the binding', async () => {
    expect((await call(app, '/audited')).headers.get('x-audited')).toBe('yes');
    expect((await call(app, '/plain')).headers.get('x-audited')).toBeNull();
  });
});

describe('filter providers and operator filters', () => {
  @Provider()
  @Priority(1)
  class ApiKeyFilter {
    filter(ctx: RequestContext) {
      if (ctx.header('x-api-key') !== 'secret') ctx.abortWith(RestResponse.status(403, 'no key'));
    }
  }

  @Provider()
  @PreMatching
  class LowerCaseFilter {
    filter(ctx: RequestContext) {
      if (ctx.rawPath !== ctx.rawPath.toLowerCase()) ctx.setRequestUri(ctx.rawPath.toLowerCase());
    }
  }

  @Provider()
  class PoweredBy {
    filter(_request: RequestContext, response: ResponseContext) {
      response.headers.set('x-powered-by', 'rxrest');
    }
  }

  @Path('secure')
  class Secure {
    @GET get() {
      return 'in';
    }
  }

  const timing: MonoTypeOperatorFunction<RequestContext> = (source) =>
    source.pipe(tap((ctx) => ctx.setProperty('seen', true)));
  const tagResponse: MonoTypeOperatorFunction<RequestContext> = (source) =>
    source.pipe(map((ctx) => (ctx.response!.headers.set('x-operator', String(ctx.getProperty('seen'))), ctx)));

  const app = buildApp(
    [ApiKeyFilter, LowerCaseFilter, PoweredBy, Secure],
    {},
    {
      filters: [
        { phase: 'request', operator: timing },
        { phase: 'response', operator: tagResponse },
      ],
    },
  );

  it('aborts with abortWith from a ContainerRequestFilter', async () => {
    const refused = await call(app, '/secure');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe('no key');
    expect(refused.headers.get('x-powered-by')).toBe('rxrest');
  });

  it('runs @PreMatching providers before routing and response providers after the method', async () => {
    const response = await call(app, '/SECURE', { headers: { 'x-api-key': 'secret' } });
    expect(await response.text()).toBe('in');
    expect(response.headers.get('x-powered-by')).toBe('rxrest');
  });

  it('runs plain RxJS operators registered as filters', async () => {
    const response = await call(app, '/secure', { headers: { 'x-api-key': 'secret' } });
    expect(response.headers.get('x-operator')).toBe('true');
  });
});

describe('a response filter that throws', () => {
  class Throwing {
    @ServerResponseFilter() boom(request: RequestContext) {
      if (request.header('x-boom')) throw new Error('secret filter detail');
    }
  }

  @Path('sync')
  class SyncResource {
    @GET get() {
      return 'sync';
    }
    @GET @Path('later') async later() {
      return 'later';
    }
  }

  const app = buildApp([Throwing, SyncResource]);

  it.each(['/sync', '/sync/later'])(
    'answers 500 without the detail, on the synchronous path as on the asynchronous one (%s)',
    async (path) => {
      const response = await call(app, path, { headers: { 'x-boom': '1' } });
      expect(response.status).toBe(500);
      expect(await response.text()).not.toContain('secret');
    },
  );
});

describe('filters that answer later', () => {
  class Later {
    @ServerRequestFilter() empty(request: RequestContext) {
      if (request.header('x-empty')) return EMPTY;
      return undefined;
    }
    @ServerRequestFilter() notAnAnswer(request: RequestContext) {
      return request.header('x-value') ? of('just a value') : true;
    }
    @ServerResponseFilter() async awaited(_request: RequestContext, response: ResponseContext) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      response.headers.set('x-awaited', 'yes');
    }
    @ServerResponseFilter() observed(_request: RequestContext, response: ResponseContext) {
      return timer(5).pipe(tap(() => response.headers.set('x-observed', 'yes')));
    }
  }

  @Path('later')
  class LaterResource {
    @GET get() {
      return 'reached';
    }
  }

  const app = buildApp([Later, LaterResource]);

  it('lets a request through when a request filter gives no answer: an empty Observable, a value that is none', async () => {
    for (const headers of [{ 'x-empty': '1' }, { 'x-value': '1' }, {}] as Record<string, string>[]) {
      const response = await call(app, '/later', { headers });
      expect([headers, response.status, await response.text()]).toEqual([headers, 200, 'reached']);
    }
  });

  it('waits for a response filter that returns a Promise or an Observable before answering', async () => {
    const response = await call(app, '/later');
    expect([response.headers.get('x-awaited'), response.headers.get('x-observed')]).toEqual(['yes', 'yes']);
  });
});

describe('an operator filter that swallows the request', () => {
  @Path('swallowed')
  class Swallowed {
    @GET get() {
      return 'reached';
    }
  }

  const swallow: MonoTypeOperatorFunction<RequestContext> = (source) =>
    source.pipe(filter((ctx) => !ctx.header('x-drop')));

  it.each(['request', 'response'] as const)(
    'answers the generic 500 when it completes without the request (%s phase), and logs why',
    async (phase) => {
      const app = buildApp([Swallowed], {}, { filters: [{ phase, operator: swallow }] });
      expect(await (await call(app, '/swallowed')).text()).toBe('reached');
      const records: LogRecord[] = [];
      const previous = logging.setSink((record) => records.push(record));
      try {
        const response = await call(app, '/swallowed', { headers: { 'x-drop': '1' } });
        expect(response.status).toBe(500);
        expect(await response.json()).toMatchObject({ code: 'RXREST_INTERNAL_ERROR' });
      } finally {
        logging.setSink(previous);
      }
      expect(records.map((record) => [record.level, (record.detail as Error).message])).toEqual([
        ['ERROR', 'The request pipeline completed without a response'],
      ]);
    },
  );
});

describe('a response filter reading the entity', () => {
  class EntityHeader {
    @ServerResponseFilter() mark(_request: RequestContext, response: ResponseContext) {
      response.headers.set('x-has-entity', String(response.hasEntity()));
    }
  }

  @Path('entities')
  class Entities {
    @GET @Path('some') some() {
      return { a: 1 };
    }
    @GET @Path('none') none() {
      return undefined;
    }
    @GET @Path('null') nothing() {
      return RestResponse.ok(null);
    }
  }

  it('tells an answer with an entity from one without (undefined or null)', async () => {
    const app = buildApp([EntityHeader, Entities]);
    const seen = [];
    for (const path of ['/entities/some', '/entities/none', '/entities/null'])
      seen.push((await call(app, path)).headers.get('x-has-entity'));
    expect(seen).toEqual(['true', 'false', 'false']);
  });
});
