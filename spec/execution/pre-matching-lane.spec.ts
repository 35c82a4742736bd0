import { Blocking, GET, Path, RequestContext, ServerRequestFilter } from '../../lib';
import { buildApp, call } from '../support/app';

const seen: string[] = [];
let release: () => void = () => undefined;

@Path('worker')
class WorkerResource {
  @GET @Path('slow') @Blocking async slow(): Promise<string> {
    await new Promise<void>((resolve) => (release = resolve));
    return 'slow';
  }
  @GET @Path('fast') fast(ctx: RequestContext): string {
    return ctx.lane;
  }
}

class LaneFilters {
  @ServerRequestFilter({ preMatching: true }) preMatching(ctx: RequestContext) {
    if (ctx.header('x-trace')) seen.push(`pre-matching:${ctx.lane}`);
  }
  @ServerRequestFilter() matched(ctx: RequestContext) {
    if (ctx.header('x-trace')) seen.push(`request:${ctx.lane}`);
  }
}

describe('pre-matching request filters', () => {
  it('run on the event loop at once, even when the worker lane is full and the endpoint must wait for it', async () => {
    const app = buildApp([WorkerResource, LaneFilters], { 'framework.rest.worker.max-concurrency': 1 });
    const slow = call(app, '/worker/slow');
    await new Promise((resolve) => setImmediate(resolve));
    seen.length = 0;
    // app.fetch is called synchronously by call(): the pre-matching filter has run before it returns.
    const fast = call(app, '/worker/fast', { headers: { 'x-trace': '1' } });
    expect(seen).toEqual(['pre-matching:event-loop']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual(['pre-matching:event-loop']);
    release();
    expect(await (await slow).text()).toBe('slow');
    expect(await (await fast).text()).toBe('worker');
    expect(seen).toEqual(['pre-matching:event-loop', 'request:worker']);
  });
});
