// The socket client made from the endpoint class itself, over a real socket: typed messages in and out, path and
// query parameters, upgrade headers, unsubscribing closes with 1000, and a close with another code is an error.
import { firstValueFrom, lastValueFrom, map, of, take, toArray, type Observable } from 'rxjs';
import {
  HeaderParam,
  OnClose,
  OnOpen,
  OnTextMessage,
  QueryParam,
  WebSocketConnection,
  WebSocketEndpoint,
  nodeWebSocket,
} from '../../lib';
import { ResponseTooLargeException, SocketClient, SocketClosedException } from '../../lib/client';
import { WebSocketServer, type WebSocket } from 'ws';
import { buildApp, withServer } from '../support/app';
import { until } from '../support/until';

class Sum {
  a = 0;
  b = 0;
}

const closeCodes: (number | undefined)[] = [];

@WebSocketEndpoint('/ws/calc/{unit}')
class CalcSocket {
  @OnOpen
  hello(unit: string, @QueryParam('who') who: string, @HeaderParam('x-team') team: string): string {
    return `${who}@${team} in ${unit}`;
  }

  @OnTextMessage
  add(sum: Sum, unit: string): { total: string } {
    if (sum.a < 0) throw new Error('negative');
    return { total: `${sum.a + sum.b}${unit}` };
  }

  @OnClose
  closed(connection: WebSocketConnection): void {
    closeCodes.push(connection.closeCode);
  }
}

@WebSocketEndpoint('/ws/words')
class WordSocket {
  @OnTextMessage
  shout(word: string): string {
    return word.toUpperCase();
  }

  @OnOpen
  greet(): Observable<string> {
    return of('ready');
  }
}

const sizedCloseCodes: (number | undefined)[] = [];

/** Answers `text:N` with N characters, `bytes:N` with N bytes. */
@WebSocketEndpoint('/ws/sized')
class SizedSocket {
  @OnTextMessage
  sized(ask: string): string | Uint8Array {
    const [kind, size] = ask.split(':');
    return kind === 'bytes' ? new Uint8Array(Number(size)) : 'x'.repeat(Number(size));
  }

  @OnClose
  closed(connection: WebSocketConnection): void {
    sizedCloseCodes.push(connection.closeCode);
  }
}

@WebSocketEndpoint('/ws/flood')
class FloodSocket {
  @OnTextMessage
  take(text: string): string {
    return text;
  }
}

/**
 * A hostile server: one text message of 50 fragments of 1 MiB, each sent once the last is written while the socket is
 * open; the last waits 2 s for the client's close, as a deflated message's 49 MiB are sent long before they are read.
 */
async function floodOnce(perMessageDeflate: boolean): Promise<{ failed: unknown; sent: number; closeCode: number }> {
  const server = new WebSocketServer({ port: 0, perMessageDeflate });
  await new Promise((resolve) => server.once('listening', resolve));
  const fragment = 'x'.repeat(1024 * 1024);
  let sent = 0;
  const closed = new Promise<number>((resolve) =>
    server.once('connection', async (socket: WebSocket) => {
      socket.once('close', resolve);
      const send = (fin: boolean) => new Promise((written) => socket.send(fragment, { fin }, written));
      while (sent < 49 && socket.readyState === socket.OPEN) await send(++sent === 50);
      if (socket.readyState === socket.OPEN) await new Promise((waited) => setTimeout(waited, 2000).unref());
      if (socket.readyState === socket.OPEN) await send(++sent === 50);
    }),
  );
  try {
    const { port } = server.address() as { port: number };
    const flood = SocketClient.create(FloodSocket, { baseUrl: `http://127.0.0.1:${port}`, webSocket: nodeWebSocket });
    const failed = await firstValueFrom(flood.connect('take')).catch((error: unknown) => error);
    return { failed, closeCode: await closed, sent };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('SocketClient', () => {
  it('sends typed messages and receives the typed answers of a method; unsubscribing closes with 1000', async () => {
    await withServer(buildApp([CalcSocket, WordSocket]), async (server) => {
      const calc = SocketClient.create(CalcSocket, {
        baseUrl: server.url,
        headers: { 'x-team': 'blue' },
        webSocket: nodeWebSocket,
      });
      const answers = await lastValueFrom(
        calc
          .connect('add', {
            path: { unit: 'kg' },
            query: { who: 'ada' },
            send: of({ a: 1, b: 2 }, { a: 10, b: 5 }),
          })
          .pipe(take(3), toArray()),
      );
      // The greeting of @OnOpen is JSON-less text, given as it is; the answers are parsed JSON.
      expect(answers).toEqual(['ada@blue in kg', { total: '3kg' }, { total: '15kg' }]);
      await until(() => (closeCodes.includes(1000) ? true : undefined), 'the server seeing the close');
      const words = SocketClient.create(WordSocket, {
        baseUrl: server.url.replace(/^http/, 'ws'),
        webSocket: nodeWebSocket,
      });
      const shouted = await lastValueFrom(words.connect('shout', { send: of('hi', '42') }).pipe(take(3), toArray()));
      // A method declared to return a string gives text as it is, even text that looks like JSON.
      expect(shouted).toEqual(['ready', 'HI', '42']);
    });
  });

  it('errors with the close code when the server closes otherwise than with 1000', async () => {
    await withServer(buildApp([CalcSocket]), async (server) => {
      const calc = SocketClient.create(CalcSocket, {
        baseUrl: server.url,
        headers: { 'x-team': 'red' },
        webSocket: nodeWebSocket,
      });
      const failed = await lastValueFrom(
        calc.connect('add', { path: { unit: 'm' }, query: { who: 'bob' }, send: of({ a: -1, b: 0 }) }).pipe(toArray()),
      ).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(SocketClosedException);
      expect((failed as SocketClosedException).code).toBe(1011);
    });
  });

  it('closes with 1009 and fails with ResponseTooLargeException at a message past limits.maxItemSize (1 Mi by default)', async () => {
    await withServer(buildApp([SizedSocket]), async (server) => {
      const sizes = (limits?: { maxItemSize: number }) =>
        SocketClient.create(SizedSocket, { baseUrl: server.url, webSocket: nodeWebSocket, limits });
      const lengths = (asks: string[], limits?: { maxItemSize: number }) =>
        lastValueFrom(
          sizes(limits)
            .connect('sized', { send: of(...asks) })
            .pipe(
              take(asks.length),
              map((message) => (typeof message === 'string' ? message : (message as Uint8Array)).length),
              toArray(),
            ),
        ).catch((error: unknown) => error);
      expect(await lengths(['text:100', 'bytes:100'], { maxItemSize: 100 })).toEqual([100, 100]);
      for (const ask of ['text:101', 'bytes:101']) {
        const failed = await lengths(['text:1', ask], { maxItemSize: 100 });
        expect(failed).toBeInstanceOf(ResponseTooLargeException);
        expect((failed as ResponseTooLargeException).limit).toBe(100);
      }
      const byDefault = await lengths([`text:${1024 * 1024 + 1}`]);
      expect((byDefault as ResponseTooLargeException).limit).toBe(1024 * 1024);
      await until(() => (sizedCloseCodes.filter((code) => code === 1009).length === 3 ? true : undefined), '3 closes');
    });
  });

  it('has nodeWebSocket refuse a message past the bound while it comes, not once 50 MiB are held (or inflated)', async () => {
    for (const perMessageDeflate of [false, true]) {
      const { failed, sent, closeCode } = await floodOnce(perMessageDeflate);
      expect(failed).toBeInstanceOf(ResponseTooLargeException);
      expect((failed as ResponseTooLargeException).limit).toBe(1024 * 1024);
      expect(closeCode).toBe(1009);
      // Refused past 3 MiB (a character of text is at most 3 bytes of UTF-8), before the message was whole.
      expect(sent).toBeLessThan(50);
    }
  });

  it('refuses a class that is no endpoint, a method it does not have, and a missing path parameter', async () => {
    class Plain {}
    expect(() => SocketClient.create(Plain, { baseUrl: 'http://localhost' })).toThrow(
      'Plain is not a @WebSocketEndpoint class',
    );
    const calc = SocketClient.create(CalcSocket, { baseUrl: 'http://localhost' });
    expect(() => calc.connect('toString' as 'add')).toThrow(
      'CalcSocket#toString is not a method of the WebSocket endpoint',
    );
    await expect(firstValueFrom(calc.connect('add'))).rejects.toThrow(
      'The path parameter "unit" of /ws/calc/{unit} needs a value',
    );
    // A global WebSocket cannot send headers (and Node 20 has none): the client says what to pass.
    const withHeaders = SocketClient.create(CalcSocket, { baseUrl: 'http://localhost', headers: { 'x-team': 'a' } });
    await expect(firstValueFrom(withHeaders.connect('add', { path: { unit: 'g' } }))).rejects.toThrow(
      /pass webSocket: nodeWebSocket/,
    );
  });
});
