import { get, type IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Observable } from 'rxjs';
import { GET, Path, Produces, RequestContext, RestApplication, resolveConfig, type RunningServer } from '../../lib';

// A full collection on demand, without running jest under --expose-gc.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** The request contexts of the streams opened, weakly: the test sees whether an open stream still holds one. */
const contexts: WeakRef<RequestContext>[] = [];

@Path('idle')
class IdleStreams {
  @GET
  @Produces('text/event-stream')
  stream(ctx: RequestContext): Observable<string> {
    contexts.push(new WeakRef(ctx));
    // A source that never emits nor ends: the stream stays open and idle until its client leaves.
    return new Observable<string>(() => undefined);
  }
}

let server: RunningServer;
beforeAll(async () => {
  // The stream caps on (one stream a client): each stream registers a clean-up that gives its place back at its end.
  const overrides = { 'framework.rest.sse.keep-alive': '0', 'framework.http.limits.max-streams-per-client': '1' };
  const app = RestApplication.build({ classes: [IdleStreams], config: resolveConfig({ overrides }) });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

function open(): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(`${server.url}/idle`, resolve).once('error', reject));
}

async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    if (ref.deref() === undefined) return true;
  }
  return false;
}

describe('an idle stream', () => {
  it('holds its clean-ups, not its request context, while open; they run once its client leaves', async () => {
    const first = await open();
    expect(first.statusCode).toBe(200);
    expect(await collected(contexts[0]!)).toBe(true);
    // The client's one place is taken until the clean-up gives it back.
    const refused = await open();
    expect(refused.statusCode).toBe(429);
    refused.resume();
    first.destroy();
    let again = await open();
    for (let i = 0; i < 50 && again.statusCode === 429; i++) {
      again.resume();
      await new Promise((resolve) => setTimeout(resolve, 10));
      again = await open();
    }
    expect(again.statusCode).toBe(200);
    again.destroy();
  });
});
