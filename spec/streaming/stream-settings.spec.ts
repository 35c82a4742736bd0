// framework.rest.stream.buffer-size and .overflow set for the whole application (no @StreamBuffer), end to end
// over a real socket: a client that stops reading an endless stream meets the configured budget and policy.
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { Observable } from 'rxjs';
import { GET, Path, Produces, RestApplication, multi, type Multi, type RunningServer } from '../../lib';
import { until } from '../support/until';

let active = 0;
let produced = 0;

@Path('endless')
class EndlessResource {
  /** Numbered lines of about 1 KB, 64 per event-loop turn, for as long as someone listens. */
  @GET
  @Produces('application/x-ndjson')
  numbers(): Multi<{ n: number; pad: string }> {
    return multi(
      new Observable<{ n: number; pad: string }>((subscriber) => {
        active++;
        let timer: NodeJS.Immediate;
        const burst = () => {
          for (let k = 0; k < 64 && !subscriber.closed; k++) subscriber.next({ n: produced++, pad: 'x'.repeat(1000) });
          if (!subscriber.closed) timer = setImmediate(burst);
        };
        timer = setImmediate(burst);
        return () => {
          active--;
          clearImmediate(timer);
        };
      }),
    );
  }
}

async function serve(overflow: string): Promise<RunningServer> {
  const overrides = { 'framework.rest.stream.buffer-size': '64K', 'framework.rest.stream.overflow': overflow };
  return RestApplication.build({ classes: [EndlessResource], overrides }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
}

/** Opens the stream and stops reading it at once; `read()` later takes up to `bytes` more. */
function paused(
  server: RunningServer,
): Promise<{ req: ClientRequest; res: IncomingMessage; read(bytes: number): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/endless`, { agent: false }, (res) => {
      res.pause();
      const read = (bytes: number) =>
        new Promise<string>((done) => {
          let text = '';
          const onData = (chunk: Buffer) => {
            text += chunk.toString('latin1');
            if (text.length >= bytes) finish();
          };
          const finish = () => {
            res.off('data', onData).off('end', finish).pause();
            done(text);
          };
          res.on('data', onData).on('end', finish).resume();
        });
      resolve({ req, res, read });
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('framework.rest.stream.* for the whole application', () => {
  beforeEach(() => {
    produced = 0;
  });

  it('fails a stream whose client stopped reading once the 64K budget is full, and stops its source', async () => {
    const server = await serve('fail');
    try {
      const client = await paused(server);
      await until(() => (produced > 0 && active === 0 ? true : undefined), 'the source to be stopped', 5000);
      // The budget and what the socket buffers held: far less than the 64M default would let through.
      expect(produced).toBeLessThan(20_000);
      client.req.destroy();
    } finally {
      await server.close();
    }
  });

  it('keeps the source running under drop-oldest and hands the client the newest items, with a gap', async () => {
    const server = await serve('drop-oldest');
    try {
      const client = await paused(server);
      await delay(1000);
      expect(active).toBe(1);
      const before = produced;
      await delay(200);
      expect(produced).toBeGreaterThan(before);
      const numbers = (await client.read(16 * 1024 * 1024))
        .split('\n')
        .filter((line) => line.endsWith('}'))
        .map((line) => (JSON.parse(line) as { n: number }).n);
      expect(numbers[0]).toBe(0);
      // The client gets what the kernel's socket buffers took (a few MB), then the newest items, made after it had been
      // paused for a second: the oldest were dropped. (The budget's size is the first spec's concern.)
      const fresh = numbers.findIndex((n) => n > before);
      expect(fresh).toBeGreaterThan(0);
      expect(fresh).toBeLessThan(16_000);
      expect(numbers.slice(1).every((n, k) => n > numbers[k]!)).toBe(true);
      client.req.destroy();
      await until(() => (active === 0 ? true : undefined), 'the source to be stopped after the client left', 5000);
    } finally {
      await server.close();
    }
  });
});
