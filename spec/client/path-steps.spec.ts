// Path parameters that a URL takes for steps of the path, over a real socket: ".." and "." would send the call to another resource of the server, with the caller's
// credentials (an id from a user, "..", turning /users/{id}/orders into /orders), and "" to the collection
// (DELETE /users/{id} into DELETE /users/). The call fails instead, and nothing is sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom } from 'rxjs';
import { DELETE, GET, Path, RestClient, RestPath, SocketClient } from '../../lib/client';
import { OnTextMessage, WebSocketEndpoint } from '../../lib';
import { within } from '../support/until';

@Path('users')
class Users {
  @GET @Path('{id}/orders') orders(@RestPath() id: string): string[] {
    throw new Error(`a contract ${id}`);
  }

  @DELETE @Path('{id}') remove(@RestPath() id: string): void {
    throw new Error(`a contract ${id}`);
  }
}

@WebSocketEndpoint('/ws/rooms/{room}/chat')
class RoomChat {
  @OnTextMessage
  say(text: string): string {
    return text;
  }
}

const received: string[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  server.closeAllConnections();
  await within(new Promise((resolve) => server.close(resolve)), 'the server to close', 5000);
});

describe('path parameters that are steps of a path', () => {
  const users = () => RestClient.create(Users, { baseUrl });

  it.each([
    ['..', () => firstValueFrom(users().orders('..'))],
    ['.', () => firstValueFrom(users().orders('.'))],
    ['', () => firstValueFrom(users().remove(''), { defaultValue: undefined })],
  ] as const)('fails the call for %j and sends nothing', async (value, call) => {
    received.length = 0;
    const error = await within(
      call().then(
        () => new Error('the call succeeded'),
        (failure: unknown) => failure,
      ),
      'the call to fail',
      5000,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      `Users.${value === '' ? 'remove' : 'orders'}: the path parameter "id" is ${JSON.stringify(value)}: in a URL the call would reach another resource`,
    );
    expect(received).toEqual([]);
  });

  it('sends values that only hold dots, encoded', async () => {
    received.length = 0;
    await within(firstValueFrom(users().orders('...')), 'the call with "..."', 5000);
    await within(firstValueFrom(users().orders('a..b')), 'the call with "a..b"', 5000);
    expect(received).toEqual(['GET /api/users/.../orders', 'GET /api/users/a..b/orders']);
  });

  it('fails a socket connection for ".." and opens nothing', async () => {
    const opened: string[] = [];
    const chat = SocketClient.create(RoomChat, {
      baseUrl,
      webSocket: (url) => {
        opened.push(url);
        throw new Error('no socket in this spec');
      },
    });
    const error = await within(
      firstValueFrom(chat.connect('say', { path: { room: '..' } })).then(
        () => new Error('the connection opened'),
        (failure: unknown) => failure,
      ),
      'the connection to fail',
      5000,
    );
    expect((error as Error).message).toBe(
      '/ws/rooms/{room}/chat: the path parameter "room" is "..": in a URL the call would reach another resource',
    );
    expect(opened).toEqual([]);
  });
});
