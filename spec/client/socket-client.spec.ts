// The socket client made from the endpoint class itself, over a real socket: typed messages in and out, path and
// query parameters, upgrade headers, unsubscribing closes with 1000, and a close with another code is an error.
import { firstValueFrom, lastValueFrom, of, take, toArray, type Observable } from 'rxjs';
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
import { SocketClient, SocketClosedException } from '../../lib/client';
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
