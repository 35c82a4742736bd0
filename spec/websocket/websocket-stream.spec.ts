// A WebSocket is a stream of the same engine as SSE and NDJSON, over real sockets: the budget bounds what waits for
// the client (not the size of a message written at once), a generator's items are pulled as messages, and a broadcast
// topic's history that a socket resumes comes at the socket's pace, page by page under the stream budget, as it does
// to an SSE client.
import { Observable } from 'rxjs';
import {
  broadcast,
  OnBinaryMessage,
  OnOpen,
  OnTextMessage,
  QueryParam,
  WebSocketEndpoint,
  type Multi,
  type SseEvent,
} from '../../lib';
import { buildApp, withServer } from '../support/app';
import { until } from '../support/until';
import { openSocket } from '../support/ws-client';

const notes = broadcast<{ text: string }>('ws-stream-notes');

@WebSocketEndpoint('/ws/notes')
class NoteSocket {
  @OnOpen
  join(@QueryParam('after') after?: string): Multi<SseEvent> {
    return notes.subscribe({ lastEventId: after });
  }
}

@WebSocketEndpoint('/ws/count')
class CountSocket {
  /** A generator: each number a message, pulled as the socket takes them. */
  @OnTextMessage
  *count(to: string): Generator<number> {
    for (let n = 1; n <= Number(to); n++) yield n;
  }
}

@WebSocketEndpoint('/ws/large')
class LargeSocket {
  /** A message of as many characters as asked for. */
  @OnTextMessage
  large(size: string): string {
    return 'x'.repeat(Number(size));
  }
}

/** The Observables the ticking socket answered with that are still subscribed. */
const ticking = new Set<string>();

/** Tells `name` and goes on until unsubscribed; one named `later...` completes 50 ms after it began. */
function ticks(name: string): Observable<string> {
  return new Observable<string>((subscriber) => {
    subscriber.next(`${name} started`);
    ticking.add(name);
    const timer = name.startsWith('later') ? setTimeout(() => subscriber.complete(), 50) : undefined;
    return () => {
      clearTimeout(timer);
      ticking.delete(name);
    };
  });
}

@WebSocketEndpoint('/ws/ticks')
class TickSocket {
  @OnOpen
  open(): Observable<string> {
    return ticks('open');
  }

  @OnTextMessage
  text(name: string): Observable<string> {
    return ticks(name);
  }

  @OnBinaryMessage
  binary(): Observable<string> {
    return ticks('binary');
  }
}

describe('a WebSocket as a stream', () => {
  it('stops every answer still streaming when the socket closes, after one between them ended on its own', async () => {
    await withServer(buildApp([TickSocket]), async (server) => {
      const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/ticks`);
      await socket.opened;
      // Streamed at once: @OnOpen's, a text message's (which ends on its own) and a binary message's; once the text
      // one ended, the next text message's.
      socket.socket.send('later');
      socket.socket.send(Buffer.from([1]));
      socket.socket.send('text');
      for (let n = 0; n < 4; n++) await socket.next();
      expect([...ticking].sort()).toEqual(['binary', 'open', 'text']);
      socket.socket.close();
      await socket.closed;
      await until(() => (ticking.size === 0 ? true : undefined), 'every answer unsubscribed');
    });
  });

  it('sends a message larger than the budget whole to a socket that takes more, as a stream sends such an item', async () => {
    const app = buildApp([LargeSocket], {
      'framework.rest.stream.buffer-size': '64K',
      'framework.rest.stream.overflow': 'fail',
    });
    await withServer(app, async (server) => {
      const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/large`);
      await socket.opened;
      // The budget bounds what waits for the client; nothing waits here, so the message is written at once.
      socket.socket.send(String(100 * 1024));
      expect((await socket.next()).length).toBe(100 * 1024);
      socket.socket.send('5');
      expect(await socket.next()).toBe('xxxxx');
      socket.socket.close();
      expect((await socket.closed).code).toBe(1005);
    });
  });

  it('sends each item of a generator a method answers as a message of its own', async () => {
    await withServer(buildApp([CountSocket]), async (server) => {
      const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/count`);
      await socket.opened;
      socket.socket.send('3');
      socket.socket.send('2');
      const answers = [];
      for (let n = 0; n < 5; n++) answers.push(await socket.next());
      expect(answers).toEqual(['1', '2', '3', '1', '2']);
      socket.socket.close();
    });
  });

  it('gets a resumed topic history many times its budget whole, page by page, then the live events', async () => {
    const app = buildApp([NoteSocket], {
      'framework.rest.stream.buffer-size': '64K',
      'framework.rest.stream.overflow': 'fail',
      'framework.broadcast.retention.max-bytes': '32M',
    });
    await withServer(app, async (server) => {
      const first = await notes.publish({ text: 'start' });
      const texts = Array.from({ length: 1500 }, (_, n) => `${n} ${'p'.repeat(15_000)}`);
      for (const text of texts) await notes.publish({ text });
      // About 22 MB of history (more than the kernel's socket buffers hold) for a socket whose budget is 64K, under
      // `fail`: sent all at once, it would close with 1011.
      const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/notes?after=${first}`, {}, 60_000);
      let closed: number | undefined;
      void socket.closed.then(({ code }) => (closed = code));
      const done = () => (socket.received.length >= texts.length || closed !== undefined ? true : undefined);
      await until(done, 'the whole history, or a close', 30_000);
      expect(closed).toBeUndefined();
      const textOf = (message: string) => (JSON.parse(message) as { text: string }).text;
      expect(socket.received.map(textOf)).toEqual(texts);
      await notes.publish({ text: 'live' });
      await until(() => (socket.received.length > texts.length ? true : undefined), 'the live event');
      expect(socket.received.slice(texts.length).map(textOf)).toEqual(['live']);
      socket.socket.close();
      expect((await socket.closed).code).toBe(1005);
    });
  }, 60_000);
});
