import { defer, EMPTY, of, tap, throwError, type MonoTypeOperatorFunction } from 'rxjs';
import {
  ExceptionUnwrapStrategy,
  GET,
  GoneException,
  Interceptor,
  InterceptorBinding,
  NotFoundException,
  Path,
  Provider,
  RestResponse,
  ServerExceptionMapper,
  UnwrapException,
  logging,
  type InvocationContext,
  type LogRecord,
  type MethodInterceptor,
} from '../../lib';
import { buildApp, call } from '../support/app';

class FirstError extends Error {}
class SecondError extends Error {}
class Intermediate extends Error {}
class UnmappedError extends Error {}

@UnwrapException({ value: [], strategy: 'UNWRAP_IF_NO_MATCH' })
class DefaultWrapper extends Intermediate {}
class DefaultWrapperChild extends DefaultWrapper {}
@UnwrapException({ strategy: ExceptionUnwrapStrategy.UNWRAP_IF_NO_EXACT_MATCH })
class ExactWrapper extends Intermediate {}
@UnwrapException({ strategy: 'UNWRAP_IF_NO_EXACT_MATCH' })
class MappedExactWrapper extends Error {}
@UnwrapException({ strategy: 'ALWAYS' })
class AlwaysWrapper extends Error {}
class ListedWrapper extends Error {}
@UnwrapException([ListedWrapper])
class UnwrapList {}
class PlainWrapper extends Error {}

class GlobalMappers {
  @ServerExceptionMapper() first(error: FirstError) {
    return RestResponse.status(413, `global ${error.message}`);
  }
  @ServerExceptionMapper(SecondError, RangeError) several() {
    return RestResponse.status(409, 'several');
  }
  @ServerExceptionMapper() cause(error: UnmappedError) {
    return RestResponse.status(521, `cause ${error.message}`);
  }
  @ServerExceptionMapper(Intermediate) intermediate() {
    return RestResponse.status(522, 'intermediate');
  }
  @ServerExceptionMapper() exact(_error: MappedExactWrapper) {
    return RestResponse.status(520, 'wrapper');
  }
  @ServerExceptionMapper() async later(_error: TypeError) {
    return RestResponse.status(418, 'async');
  }
  @ServerExceptionMapper() routed(_error: NotFoundException) {
    return new Response('{"error":"not found"}', { status: 404, headers: { 'content-type': 'application/json' } });
  }
}

@Provider({ exception: SyntaxError })
class SyntaxMapper {
  toResponse(error: SyntaxError) {
    return RestResponse.status(400, `syntax: ${error.message}`);
  }
}

@Path('first')
class FirstResource {
  @GET local(): string {
    throw new FirstError('boom');
  }
  @GET @Path('other') other(): string {
    throw new EvalError('local only');
  }
  @ServerExceptionMapper() mapLocal(error: FirstError) {
    return RestResponse.status(412, `local ${error.message}`);
  }
  @ServerExceptionMapper(EvalError) mapEval() {
    return of(RestResponse.status(451, 'observable'));
  }
}

@Path('second')
class SecondResource {
  @GET global(): string {
    throw new FirstError('boom');
  }
  @GET @Path('eval') evalError(): string {
    throw new EvalError('unmapped here');
  }
  @GET @Path('several') several(): string {
    throw new RangeError('r');
  }
  @GET @Path('async') async later(): Promise<string> {
    throw new TypeError('t');
  }
  @GET @Path('provider') provider(): string {
    throw new SyntaxError('bad');
  }
  @GET @Path('wrap/{kind}') wrap(kind: string): string {
    const cause = new UnmappedError('inner');
    const make: Record<string, () => Error> = {
      default: () => new DefaultWrapper('w', { cause }),
      child: () => new DefaultWrapperChild('w', { cause }),
      exact: () => new ExactWrapper('w', { cause }),
      mappedExact: () => new MappedExactWrapper('w', { cause }),
      always: () => new AlwaysWrapper('w', { cause }),
      alwaysNoCauseMapper: () => new AlwaysWrapper('w', { cause: new EvalError('x') }),
      listed: () => new ListedWrapper('w', { cause }),
      plain: () => new PlainWrapper('w', { cause }),
      unmappedCause: () => new MappedExactWrapper('w', { cause: new EvalError('x') }),
    };
    throw make[kind]();
  }
}

const app = buildApp([GlobalMappers, SyntaxMapper, FirstResource, SecondResource, UnwrapList]);

async function statusAndText(path: string): Promise<[number, string]> {
  const response = await call(app, path);
  return [response.status, await response.text()];
}

describe('exception mappers', () => {
  it('prefers a class-local mapper to a global one, and applies local mappers to their class only', async () => {
    expect(await statusAndText('/first')).toEqual([412, 'local boom']);
    expect(await statusAndText('/second')).toEqual([413, 'global boom']);
    expect((await call(app, '/second/eval')).status).toBe(500);
    expect(await statusAndText('/first/other')).toEqual([451, 'observable']);
  });

  it('maps several types with one mapper, async mappers and ExceptionMapper providers', async () => {
    expect(await statusAndText('/second/several')).toEqual([409, 'several']);
    expect(await statusAndText('/second/async')).toEqual([418, 'async']);
    expect(await statusAndText('/second/provider')).toEqual([400, 'syntax: bad']);
  });

  it('lets a NotFoundException mapper rewrite the routing 404', async () => {
    const response = await call(app, '/nowhere', { headers: { accept: 'garbage' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not found' });
  });

  it.each([
    ['default', 522, 'a wrapper whose supertype is mapped is not unwrapped (UNWRAP_IF_NO_MATCH)'],
    ['child', 522, 'a subclass of an annotated wrapper behaves like it'],
    ['exact', 521, 'UNWRAP_IF_NO_EXACT_MATCH unwraps although a supertype is mapped'],
    ['mappedExact', 520, 'UNWRAP_IF_NO_EXACT_MATCH keeps a directly mapped wrapper'],
    ['always', 521, 'ALWAYS unwraps first'],
    ['alwaysNoCauseMapper', 500, 'ALWAYS falls back to the wrapper, unmapped here'],
    ['listed', 521, 'a wrapper listed on another class is unwrapped'],
    ['plain', 500, 'a wrapper without @UnwrapException is not unwrapped'],
    ['unmappedCause', 520, 'an unmapped cause falls back to the wrapper mapper'],
  ])('unwraps %s → %d (%s)', async (kind, status) => {
    expect((await call(app, `/second/wrap/${kind}`)).status).toBe(status);
  });

  it('answers unmapped errors with a generic 500 and logs the stack, never sending internals', async () => {
    @Path('secret')
    class Secret {
      @GET get(): string {
        throw new Error('secret detail at /etc/passwd');
      }
    }
    const records: LogRecord[] = [];
    const previous = logging.setSink((record) => records.push(record));
    try {
      const response = await call(buildApp([Secret]), '/secret');
      const body = await response.text();
      expect(response.status).toBe(500);
      expect(body).not.toContain('secret');
      expect(body).not.toContain('/etc');
      expect(JSON.parse(body)).toMatchObject({ code: 'RXREST_INTERNAL_ERROR' });
    } finally {
      logging.setSink(previous);
    }
    expect(records.some((r) => r.level === 'ERROR' && (r.detail as Error).message.includes('secret detail'))).toBe(
      true,
    );
  });
});

describe('method interceptors', () => {
  const Traced = InterceptorBinding('Traced');
  const Retried = InterceptorBinding('Retried');
  const calls: string[] = [];

  @Interceptor(Traced, { priority: 1 })
  class TraceInterceptor implements MethodInterceptor {
    intercept(invocation: InvocationContext): MonoTypeOperatorFunction<unknown> {
      return (call$) =>
        defer(() => {
          calls.push(`enter ${invocation.methodName}`);
          return call$.pipe(
            tap({ next: () => calls.push(`exit ${invocation.methodName}`), error: () => calls.push('failed') }),
          );
        });
    }
  }

  @Interceptor(Traced, Retried, { priority: 2 })
  class UpperInterceptor implements MethodInterceptor {
    intercept(): MonoTypeOperatorFunction<unknown> {
      return (call$) =>
        defer(() => {
          calls.push('inner');
          return call$;
        });
    }
  }

  @Path('intercepted')
  @Traced
  class Intercepted {
    @GET get() {
      return 'result';
    }
    @GET @Path('fail') fail(): string {
      throw new FirstError('f');
    }
    @ServerExceptionMapper() plain(error: FirstError) {
      calls.push('mapper');
      return RestResponse.status(400, error.message);
    }
  }

  @Path('mapped-traced')
  class MappedTraced {
    @GET fail(): string {
      throw new SecondError('s');
    }
    @ServerExceptionMapper() @Traced traced(error: SecondError) {
      return RestResponse.status(409, error.message);
    }
  }

  const intercepted = buildApp([TraceInterceptor, UpperInterceptor, Intercepted, MappedTraced]);
  beforeEach(() => (calls.length = 0));

  it('wraps the method call, the lowest priority outermost', async () => {
    expect(await (await call(intercepted, '/intercepted')).text()).toBe('result');
    expect(calls).toEqual(['enter get', 'inner', 'exit get']);
  });

  it('sees errors of the call, and does not wrap mappers without the binding', async () => {
    expect((await call(intercepted, '/intercepted/fail')).status).toBe(400);
    expect(calls).toEqual(['enter fail', 'inner', 'failed', 'mapper']);
  });

  it('wraps exception mappers that carry the binding themselves', async () => {
    expect((await call(intercepted, '/mapped-traced')).status).toBe(409);
    expect(calls).toEqual(['enter traced', 'inner', 'exit traced']);
  });
});

describe('a mapper answering an object on a text/plain endpoint', () => {
  class OutOfStock extends Error {
    constructor(readonly item: string) {
      super(`${item} is out of stock`);
    }
  }

  @Path('shop')
  class ShopResource {
    @GET
    buy(): string {
      throw new OutOfStock('brie');
    }

    @ServerExceptionMapper()
    outOfStock(error: OutOfStock): RestResponse<{ item: string }> {
      return RestResponse.status(409, { item: error.item });
    }
  }

  it('writes it as JSON text, never [object Object]', async () => {
    const response = await call(buildApp([ShopResource]), '/shop');
    expect(response.status).toBe(409);
    expect(await response.text()).toBe('{"item":"brie"}');
  });
});

describe('a mapper that gives no answer, or fails', () => {
  class Gone extends GoneException {}

  @Path('failing-mappers')
  class FailingMappers {
    @GET @Path('{how}') fail(how: string): string {
      if (how === 'not-found') throw new NotFoundException('no such thing');
      throw new Gone(how);
    }
    @ServerExceptionMapper() none(error: NotFoundException) {
      return of(undefined).pipe(tap(() => error.message));
    }
    @ServerExceptionMapper() gone(error: Gone) {
      switch (error.message) {
        case 'empty':
          return EMPTY;
        case 'observable-fails':
          return throwError(() => new Error('mapper detail one'));
        case 'promise-fails':
          return Promise.reject(new Error('mapper detail two'));
        default:
          throw new Error('mapper detail three');
      }
    }
  }

  const app = buildApp([FailingMappers]);

  it("answers the error's own answer when the mapper gives none: undefined, or an empty Observable", async () => {
    const notFound = await call(app, '/failing-mappers/not-found');
    expect([notFound.status, await notFound.text()]).toEqual([404, 'no such thing']);
    const empty = await call(app, '/failing-mappers/empty');
    expect([empty.status, await empty.text()]).toEqual([410, 'empty']);
  });

  it.each(['observable-fails', 'promise-fails', 'throws'])(
    'answers the generic 500 when the mapper fails (%s), its detail kept from the client',
    async (how) => {
      const records: LogRecord[] = [];
      const previous = logging.setSink((record) => records.push(record));
      try {
        const response = await call(app, `/failing-mappers/${how}`);
        expect(response.status).toBe(500);
        expect(await response.json()).toMatchObject({ code: 'RXREST_INTERNAL_ERROR' });
      } finally {
        logging.setSink(previous);
      }
      expect(records).toEqual([
        expect.objectContaining({
          level: 'ERROR',
          detail: expect.objectContaining({ message: expect.stringMatching(/^mapper detail/) }),
        }),
      ]);
    },
  );
});

describe('an @Interceptor class', () => {
  it('is refused at build time without an intercept method', () => {
    const Audited = InterceptorBinding('Audited');
    @Interceptor(Audited)
    class Incomplete {}
    expect(() => buildApp([Incomplete])).toThrow(
      /Incomplete.*@Interceptor classes must have an intercept\(invocation\) method returning an RxJS operator/s,
    );
  });
});
