// The bytes a stream holds leave the application's total exactly, whichever way the stream ends: completed, failed,
// its client gone, past its own budget, at a shutdown; those still in the socket of an ended stream once its client
// took them or left. Two applications in one process each count their own.
import { connect, type Socket } from 'node:net';
import { Observable } from 'rxjs';
import {
  GET,
  Path,
  Produces,
  QueryParam,
  StreamBuffer,
  multi,
  type Multi,
  type RestApp,
  type RunningServer,
} from '../../lib';
import { buildApp } from '../support/app';
import { until } from '../support/until';

const PAD = 'p'.repeat(1000);
/** How many of the small streams' sources were unsubscribed. */
let smallStopped = 0;
// Enough that the sockets between server and client cannot take it all: the rest is held.
const ITEMS = 20_000;

/**
 * 40 items of about 1 KB every millisecond: `ITEMS` of them then the end (`complete`, or an error for `error`), or for
 * good (`endless`).
 */
function items(end: 'complete' | 'error' | 'endless', onStop?: () => void): Multi<{ i: number; pad: string }> {
  return multi(
    new Observable<{ i: number; pad: string }>((subscriber) => {
      let i = 0;
      const timer = setInterval(() => {
        for (let k = 0; k < 40; k++) subscriber.next({ i: i++, pad: PAD });
        if (i < ITEMS || end === 'endless') return;
        if (end === 'complete') subscriber.complete();
        else subscriber.error(new Error('the source failed'));
      }, 1);
      return () => {
        clearInterval(timer);
        onStop?.();
      };
    }),
  );
}

@Path('release')
class Ends {
  @GET
  @Produces('text/event-stream')
  ends(@QueryParam('end') end: string): Multi<unknown> {
    return items(end === 'complete' || end === 'error' ? end : 'endless');
  }

  /** Cut by its own budget, far below the total: what it held then goes to its socket, before the `error` event. */
  @GET
  @Path('small')
  @Produces('text/event-stream')
  @StreamBuffer({ size: '1M', overflow: 'fail' })
  small(): Multi<unknown> {
    return items('endless', () => smallStopped++);
  }
}

const settings = {
  'framework.rest.stream.total-buffer-size': '64M',
  'framework.rest.sse.keep-alive': 0,
  'framework.metrics.enabled': true,
};

let app: RestApp;
let server: RunningServer;
beforeAll(async () => {
  app = buildApp([Ends], settings);
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

/** The bytes `of`'s streams hold, read from its metrics. */
async function held(of: RestApp): Promise<number> {
  const metric = await of.metrics!.getSingleMetric('rxrest_stream_buffered_bytes')!.get();
  return metric.values[0].value;
}

async function heldOver(of: RestApp, bytes: number, what: string): Promise<void> {
  await until(async () => ((await held(of)) > bytes ? true : undefined), what);
}

async function heldNone(of: RestApp, what: string): Promise<void> {
  await until(async () => ((await held(of)) === 0 ? true : undefined), `${what}: the held bytes back to 0`, 10_000);
}

/** A client of `path` on `port` that reads nothing until told to. */
function paused(port: number, path: string): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

/** Reads everything `socket` is sent from now on; resolves with the text once it holds `last`. */
function readAll(socket: Socket, last: string): Promise<string> {
  let text = '';
  return until(
    () => {
      if (socket.isPaused()) {
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.resume();
      }
      return text.includes(last) ? text : undefined;
    },
    `the body up to ${JSON.stringify(last)}`,
  );
}

describe('the bytes a stream holds leave the total', () => {
  it('when it completes, once its client took what its socket held', async () => {
    const client = paused(server.port, '/release?end=complete');
    try {
      await heldOver(app, 1024 * 1024, 'a completed stream’s bytes held for its paused client');
      const body = await readAll(client, '\r\n0\r\n\r\n');
      expect(body).toContain(`"i":${ITEMS - 1},`);
      await heldNone(app, 'completion');
    } finally {
      client.destroy();
    }
  });

  it('when its source fails, once its client took the events and the error', async () => {
    const client = paused(server.port, '/release?end=error');
    try {
      await heldOver(app, 1024 * 1024, 'a failed stream’s bytes held for its paused client');
      await readAll(client, 'event:error');
      await heldNone(app, 'a source error');
    } finally {
      client.destroy();
    }
  });

  it('when its client goes away', async () => {
    const client = paused(server.port, '/release?end=endless');
    try {
      await heldOver(app, 1024 * 1024, 'an endless stream’s bytes held for its paused client');
    } finally {
      client.destroy();
    }
    await heldNone(app, 'client gone');
  });

  it('when it gets past its own budget, once its client leaves', async () => {
    const client = paused(server.port, '/release/small');
    try {
      await until(() => (smallStopped === 1 ? true : undefined), 'the small stream cut by its own budget');
      await heldOver(app, 512 * 1024, 'the cut stream’s bytes held in its socket');
    } finally {
      client.destroy();
    }
    await heldNone(app, 'overflow');
  });

  it('at a shutdown, of its own application only', async () => {
    const other = buildApp([Ends], { ...settings, 'framework.shutdown.timeout': '200ms' });
    const running = await other.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const client = paused(running.port, '/release?end=endless');
    try {
      await heldOver(other, 1024 * 1024, 'the other application’s stream holding bytes');
      expect(await held(app)).toBe(0);
      await running.close();
      await heldNone(other, 'shutdown');
    } finally {
      client.destroy();
      await running.close();
    }
  });
});
