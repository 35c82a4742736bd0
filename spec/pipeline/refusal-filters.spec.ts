// A refusal the framework answers after the request reached it passes through the response filters like any other
// answer (the Java specification: an exception mapped to a response goes on to the response filters), so a filter
// adding CORS, tracing or cache headers sees the 406 and the 415 too: the global filters every refusal of routing,
// and a filter bound by name (@NameBinding) the answers of the methods it is bound to, among them the 406 decided
// once a method without @Produces has answered. A refusal during routing has no method, so no bound filter.
import { map, type MonoTypeOperatorFunction } from 'rxjs';
import {
  Consumes,
  GET,
  NameBinding,
  Path,
  POST,
  Produces,
  ResponseContext,
  RestApplication,
  ServerResponseFilter,
  type RequestContext,
  type RunningServer,
} from '../../lib';
import { send, type RawReply } from '../support/http';
import { within } from '../support/until';

const Stamped = NameBinding('Stamped');

@Path('cheese')
@Stamped
class Cheese {
  @GET @Produces('application/json', 'text/plain') get(): unknown {
    return { name: 'Morbier' };
  }
  @GET @Path('one') @Produces('application/json') one(): unknown {
    return { name: 'Brie' };
  }
  @GET @Path('plain') plain(): unknown {
    return { name: 'Comté' };
  }
  @POST @Consumes('application/json') add(body: { name: string }): unknown {
    return body;
  }
}

class GlobalFilter {
  @ServerResponseFilter() stamp(response: ResponseContext): void {
    response.headers.set('x-global', String(response.status));
  }
}

@Stamped
class BoundFilter {
  @ServerResponseFilter() stamp(response: ResponseContext): void {
    response.headers.set('x-bound', String(response.status));
  }
}

// A response filter written as an RxJS operator, registered for the response phase.
const operator: MonoTypeOperatorFunction<RequestContext> = (source) =>
  source.pipe(map((ctx) => (ctx.response?.headers.set('x-operator', String(ctx.response.status)), ctx)));

describe('framework refusals and the response filters', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await RestApplication.build({
      classes: [Cheese, GlobalFilter, BoundFilter],
      filters: [{ phase: 'response', operator }],
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  });
  afterAll(() => server.close());

  const seen = (reply: RawReply) => [reply.status, reply.headers['x-global'], reply.headers['x-operator']];
  const ask = (path: string, method = 'GET', headers: Record<string, string> = {}) =>
    within(send(`${server.url}${path}`, method, headers), `${method} ${path}`);

  it('reach the global filters, decorated or written as operators: 406, 415, 405, 404, 400', async () => {
    const cases: [string, string, Record<string, string>, number][] = [
      ['/cheese', 'GET', { accept: 'image/png' }, 406],
      ['/cheese/one', 'GET', { accept: 'text/csv' }, 406],
      ['/cheese/one', 'HEAD', { accept: 'text/csv' }, 406],
      ['/cheese/plain', 'GET', { accept: 'text/csv' }, 406],
      ['/cheese', 'POST', { 'content-type': 'text/csv' }, 415],
      ['/cheese/one', 'DELETE', {}, 405],
      ['/nothing', 'GET', {}, 404],
      ['/cheese/a%00b', 'GET', {}, 400],
    ];
    for (const [path, method, headers, status] of cases) {
      const answer = seen(await ask(path, method, headers));
      expect([method, path, ...answer]).toEqual([method, path, status, String(status), String(status)]);
    }
  });

  it('reach a filter bound by name on the 406 decided after its method, not on a refusal during routing', async () => {
    expect((await ask('/cheese/plain', 'GET', { accept: 'text/csv' })).headers['x-bound']).toBe('406');
    expect((await ask('/cheese/plain')).headers['x-bound']).toBe('200');
    expect((await ask('/cheese/one', 'GET', { accept: 'text/csv' })).headers['x-bound']).toBeUndefined();
  });
});
