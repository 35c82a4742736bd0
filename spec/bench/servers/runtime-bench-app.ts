/**
 * The runtimes benchmark's two applications, bundled once and served on Node, Bun, Deno and workerd alike: the JSON
 * GET of the load bench and a stream of `n` SSE items, from rxrest and from bare Hono as Hono's documentation writes
 * them; bare Hono also serves the same frames from a hand-written `ReadableStream` loop, and a third application is the
 * GET written by hand with the work rxrest's answer must do besides. Types are given explicitly: esbuild emits no
 * decorator metadata.
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { map, range } from 'rxjs';
import { GET, multi, Path, PathParam, Produces, QueryParam, RestApplication, Separator } from '../../../lib';

type Fetch = (request: Request, env?: unknown, ctx?: unknown) => Response | Promise<Response>;

@Path('/')
class RuntimeBenchResource {
  @GET
  @Path('users/{id}')
  @Produces('application/json')
  user(
    @PathParam('id', { type: Number }) id: number,
    @QueryParam('fields', { type: [String] }) @Separator(',') fields: string[],
  ): { id: number; fields: string[] } {
    return { id, fields };
  }

  @GET
  @Path('bench/sse')
  @Produces('text/event-stream')
  sse(@QueryParam('n', { type: Number }) n: number): unknown {
    return multi(range(0, n).pipe(map((i) => ({ i }))));
  }
}

function rxrestFetch(): Fetch {
  const app = RestApplication.build({
    classes: [RuntimeBenchResource],
    // No keep-alive comments: every server sends the items' frames alone.
    overrides: { 'framework.rest.sse.keep-alive': '0' },
  });
  return app.fetch;
}

const encoder = new TextEncoder();

/**
 * The limit a user of the runtime would write by hand: one frame per `enqueue`, as many as the stream asks for
 * (`desiredSize`), so the runtime's backpressure holds as it does for a Node server honouring `drain`.
 */
function handWrittenStream(n: number): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        while (i < n && (controller.desiredSize ?? 0) > 0) controller.enqueue(encoder.encode(`data:{"i":${i++}}\n\n`));
        if (i >= n) controller.close();
      },
    },
    { highWaterMark: 16 },
  );
}

function honoFetch(): Fetch {
  const app = new Hono();
  app.get('/users/:id', (c) =>
    c.json({ id: Number(c.req.param('id')), fields: (c.req.query('fields') ?? '').split(',') }),
  );
  app.get('/bench/sse', (c) => {
    const n = Number(c.req.query('n'));
    return streamSSE(c, async (s) => {
      for (let i = 0; i < n; i++) await s.writeSSE({ data: JSON.stringify({ i }) });
    });
  });
  app.get('/bench/loop', (c) => {
    const body = handWrittenStream(Number(c.req.query('n')));
    return c.body(body, 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  });
  return (request, env) => app.fetch(request, env);
}

/** Whether an `Accept` header admits JSON: the least a hand-written route answering 406 must look for. */
const acceptsJson = (accept: string): boolean =>
  accept.includes('application/json') || accept.includes('*/*') || accept.includes('application/*');

/**
 * The GET as a Hono user writes it to do what rxrest's answer does besides the route's own work: it reads `Accept` (an
 * endpoint producing one type answers 406 to an `Accept` that excludes it) and sends `X-Content-Type-Options: nosniff`
 * (`c.header`; Hono builds a `Headers` for any answer of more than one header, however they are given).
 */
function honoSameWorkFetch(): Fetch {
  const app = new Hono();
  app.get('/users/:id', (c) => {
    const accept = c.req.header('accept');
    if (accept !== undefined && !acceptsJson(accept)) return c.body(null, 406);
    c.header('x-content-type-options', 'nosniff');
    return c.json({ id: Number(c.req.param('id')), fields: (c.req.query('fields') ?? '').split(',') });
  });
  return (request, env) => app.fetch(request, env);
}

/** The fetch handler of `kind`: `rxrest`, `hono` (which also serves the hand-written loop), or `hono-same-work`. */
export function benchFetch(kind: string): Fetch {
  if (kind === 'rxrest') return rxrestFetch();
  return kind === 'hono-same-work' ? honoSameWorkFetch() : honoFetch();
}
