import { Readable } from 'node:stream';
import { Observable, of } from 'rxjs';
import {
  Application,
  Blocking,
  GET,
  Multi,
  NonBlocking,
  Path,
  Produces,
  RequestContext,
  ServerRequestFilter,
  Transactional,
  multi,
  DefinitionError,
  logging,
  type LogRecord,
} from '../../lib';
import { buildApp, call } from '../support/app';

const seen: string[] = [];

@Path('lanes')
class LaneResource {
  @GET @Path('sync') sync(ctx: RequestContext): string {
    return ctx.lane;
  }

  @GET @Path('promise') async promise(ctx: RequestContext): Promise<string> {
    return ctx.lane;
  }

  @GET @Path('observable') observable(ctx: RequestContext): Observable<string> {
    return of(ctx.lane);
  }

  @GET @Path('multi') @Produces('application/x-ndjson') declaredMulti(ctx: RequestContext): Multi<string> {
    return multi(of(ctx.lane));
  }

  @GET @Path('generator') @Produces('application/x-ndjson') async *generator(
    ctx: RequestContext,
  ): AsyncGenerator<string> {
    yield ctx.lane;
  }

  @GET @Path('readable') @Produces('text/plain') readable(ctx: RequestContext): Readable {
    return Readable.from([ctx.lane]);
  }

  @GET @Path('blocking-promise') @Blocking async blockingPromise(ctx: RequestContext): Promise<string> {
    return ctx.lane;
  }

  @GET @Path('non-blocking-sync') @NonBlocking nonBlockingSync(ctx: RequestContext): string {
    return ctx.lane;
  }

  @GET @Path('transactional') @Transactional async transactional(ctx: RequestContext): Promise<string> {
    return ctx.lane;
  }
}

@Path('blocking-class')
@Blocking
class BlockingClass {
  @GET async get(ctx: RequestContext): Promise<string> {
    return ctx.lane;
  }

  @GET @Path('opt-out') @NonBlocking optOut(ctx: RequestContext): string {
    return ctx.lane;
  }
}

@Path('non-blocking-class')
@NonBlocking
class NonBlockingClass {
  @GET get(ctx: RequestContext): string {
    return ctx.lane;
  }
}

@Path('transactional-class')
@Transactional
class TransactionalClass {
  @GET async get(ctx: RequestContext): Promise<string> {
    return ctx.lane;
  }
}

class Filters {
  @ServerRequestFilter({ nonBlocking: true, priority: 1 }) early(ctx: RequestContext) {
    if (ctx.header('x-trace')) seen.push(`early:${ctx.lane}`);
  }
  @ServerRequestFilter({ priority: 2 }) late(ctx: RequestContext) {
    if (ctx.header('x-trace')) seen.push(`late:${ctx.lane}`);
  }
}

const app = buildApp([LaneResource, BlockingClass, NonBlockingClass, TransactionalClass]);
const text = async (path: string) => (await (await call(app, path)).text()).trim();

describe('RequestContext.lane', () => {
  it('follows the declared return type: values → worker; Promise, Observable, Multi, generators, streams → event loop', async () => {
    expect(await text('/lanes/sync')).toBe('worker');
    expect(await text('/lanes/promise')).toBe('event-loop');
    expect(await text('/lanes/observable')).toBe('event-loop');
    expect(await text('/lanes/multi')).toBe('"event-loop"');
    expect(await text('/lanes/generator')).toBe('"event-loop"');
    expect(await text('/lanes/readable')).toBe('event-loop');
  });

  it('follows @Blocking, @NonBlocking and @Transactional on the method', async () => {
    expect(await text('/lanes/blocking-promise')).toBe('worker');
    expect(await text('/lanes/non-blocking-sync')).toBe('event-loop');
    expect(await text('/lanes/transactional')).toBe('worker');
  });

  it('follows the class annotation unless the method has its own', async () => {
    expect(await text('/blocking-class')).toBe('worker');
    expect(await text('/blocking-class/opt-out')).toBe('event-loop');
    expect(await text('/non-blocking-class')).toBe('event-loop');
    expect(await text('/transactional-class')).toBe('worker');
  });

  it('follows the Application annotation below method and class ones', async () => {
    @Blocking
    class BlockingApp extends Application {}
    @NonBlocking
    class NonBlockingApp extends Application {}
    const blocking = buildApp([LaneResource, NonBlockingClass], {}, { application: new BlockingApp() });
    expect(await (await call(blocking, '/lanes/promise')).text()).toBe('worker');
    expect(await (await call(blocking, '/lanes/non-blocking-sync')).text()).toBe('event-loop');
    expect(await (await call(blocking, '/non-blocking-class')).text()).toBe('event-loop');
    const nonBlocking = buildApp([LaneResource, BlockingClass], {}, { application: new NonBlockingApp() });
    expect(await (await call(nonBlocking, '/lanes/sync')).text()).toBe('event-loop');
    expect(await (await call(nonBlocking, '/blocking-class')).text()).toBe('worker');
  });

  it('is set before the request filters run, which see their endpoint lane', async () => {
    const filtered = buildApp([LaneResource, Filters]);
    seen.length = 0;
    await call(filtered, '/lanes/sync', { headers: { 'x-trace': '1' } });
    await call(filtered, '/lanes/promise', { headers: { 'x-trace': '1' } });
    expect(seen).toEqual(['early:worker', 'late:worker', 'early:event-loop', 'late:event-loop']);
  });
});

describe('request filter order', () => {
  it('stops the build when a nonBlocking request filter runs after a blocking one, naming it', () => {
    class Misordered {
      @ServerRequestFilter({ priority: 1 }) blocking() {}
      @ServerRequestFilter({ nonBlocking: true, priority: 2 }) nonBlocking() {}
    }
    expect(() => buildApp([LaneResource, Misordered])).toThrow(DefinitionError);
    expect(() => buildApp([LaneResource, Misordered])).toThrow(/Misordered#nonBlocking/);
  });
});

describe('worker lane', () => {
  it('answers a synchronous worker-lane GET synchronously when a slot is free (no macrotask hop)', () => {
    const answer = app.fetch(new Request('http://localhost/lanes/sync'));
    expect(answer).toBeInstanceOf(Response);
  });

  it('bounds concurrent worker-lane calls by framework.rest.worker.max-concurrency', async () => {
    let running = 0;
    let peak = 0;
    @Path('slow')
    class Slow {
      @GET @Blocking async slow(): Promise<string> {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return 'done';
      }
    }
    const bounded = buildApp([Slow], { 'framework.rest.worker.max-concurrency': 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(bounded, '/slow')));
    expect(await Promise.all(answers.map((answer) => answer.text()))).toEqual(Array(6).fill('done'));
    expect(peak).toBe(2);
  });
});

describe('blocked-loop warning', () => {
  it('names Class#method when a call holds the event loop longer than framework.rest.blocked-warning-ms', async () => {
    @Path('busy')
    class Busy {
      @GET busy(): string {
        const until = Date.now() + 300;
        while (Date.now() < until);
        return 'busy';
      }
      @GET @Path('quick') quick(): string {
        return 'quick';
      }
    }
    const records: LogRecord[] = [];
    // 100 ms, not 10: a pause of a loaded machine (a GC, another process on the core) during the quick call must not
    // pass for blocking; the busy call holds the loop three times that.
    const busy = buildApp([Busy], { 'framework.rest.blocked-warning-ms': 100 });
    const previous = logging.setSink((record) => records.push(record));
    try {
      expect(await (await call(busy, '/busy/quick')).text()).toBe('quick');
      expect(records.filter((record) => record.category === 'rxrest.execution')).toEqual([]);
      expect(await (await call(busy, '/busy')).text()).toBe('busy');
    } finally {
      logging.setSink(previous);
    }
    const warning = records.find((record) => record.category === 'rxrest.execution');
    expect(warning?.level).toBe('WARN');
    expect(warning?.message).toContain('Busy#busy');
    expect(warning?.message).toContain('framework.rest.blocked-warning-ms');
  });

  it('warns of nothing with framework.rest.blocked-warning-ms = 0', async () => {
    @Path('busy')
    class Busy {
      @GET busy(): string {
        const until = Date.now() + 50;
        while (Date.now() < until);
        return 'busy';
      }
    }
    const records: LogRecord[] = [];
    const unwatched = buildApp([Busy], { 'framework.rest.blocked-warning-ms': 0 });
    const previous = logging.setSink((record) => records.push(record));
    try {
      expect(await (await call(unwatched, '/busy')).text()).toBe('busy');
    } finally {
      logging.setSink(previous);
    }
    expect(records.filter((record) => record.category === 'rxrest.execution')).toEqual([]);
  });
});
