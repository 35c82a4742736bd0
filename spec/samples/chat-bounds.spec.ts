// The chat samples a newcomer copies take bounded input, over a real socket: a message's user and text have a
// length limit (400 naming the field), a room is named by at most 64 letters, digits, - or _, and the rooms one
// instance holds are bounded by framework.broadcast.max-topics: a socket to one room too many is closed with the
// reason.
import { RestApplication, type RunningServer } from '../../lib';
import { chatSampleClasses } from '../../samples/chat/chat-resource';
import { websocketSampleClasses } from '../../samples/websocket/chat-socket';
import { openSocket } from '../support/ws-client';

let server: RunningServer;
beforeAll(async () => {
  const app = RestApplication.build({
    classes: [...chatSampleClasses, ...websocketSampleClasses],
    overrides: { 'framework.broadcast.max-topics': 2 },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

const post = (body: unknown) =>
  fetch(`${server.url}/chat/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the chat samples', () => {
  it('refuse a message whose text or user is too long, naming the field', async () => {
    expect((await post({ user: 'ada', text: 'x'.repeat(2000) })).status).toBe(202);
    for (const [body, field] of [
      [{ user: 'ada', text: 'x'.repeat(2001) }, 'text'],
      [{ user: 'a'.repeat(65), text: 'hi' }, 'user'],
    ] as const) {
      const refused = await post(body);
      expect(refused.status).toBe(400);
      const problem = (await refused.json()) as { violations: { field: string }[] };
      expect(problem.violations.map((violation) => violation.field)).toEqual([field]);
    }
  });

  it('refuse a room named otherwise than by 1 to 64 letters, digits, - or _: no topic is made for it', async () => {
    for (const name of ['a'.repeat(65), 'a%20b', '..%2Fx', '%C3%A9']) {
      const socket = openSocket(`${server.url.replace('http', 'ws')}/ws/chat?room=${name}`);
      await socket.opened;
      // Joining is refused with the problem naming the parameter; a message sent to that room is refused alike.
      const joining = JSON.parse(await socket.next()) as { code: string; violations: { field: string }[] };
      expect([name, joining.code, joining.violations.map((violation) => violation.field)]).toEqual([
        name,
        'RXREST_VALIDATION_FAILED',
        ['room'],
      ]);
      socket.socket.send(JSON.stringify({ user: 'ada', text: 'hi' }));
      expect((JSON.parse(await socket.next()) as { code: string }).code).toBe('RXREST_VALIDATION_FAILED');
      socket.socket.close();
      await socket.closed;
    }
  });

  it('close a socket to one room too many with the reason, and take it once a room is left', async () => {
    const url = (room: string) => `${server.url.replace('http', 'ws')}/ws/chat?room=${room}`;
    const first = openSocket(url('one'));
    const second = openSocket(url('two'));
    await Promise.all([first.opened, second.opened]);
    const third = openSocket(url('three'));
    await third.opened;
    const closed = await third.closed;
    expect(closed.code).toBe(1013);
    expect(closed.reason).toContain('framework.broadcast.max-topics');
    first.socket.close();
    await first.closed;
    const again = openSocket(url('three'));
    await again.opened;
    again.socket.send(JSON.stringify({ user: 'ada', text: 'in three' }));
    expect(JSON.parse(await again.next())).toEqual({ user: 'ada', text: 'in three' });
    again.socket.close();
    second.socket.close();
  });
});
