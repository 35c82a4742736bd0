// The MCP sessions one process holds are bounded, over a real socket: an `initialize` costs a stranger one request,
// and each session holds a broadcast topic until it ends (30 minutes idle), so a flood of them used to fill
// framework.broadcast.max-topics, and then every broadcast of the process, the MCP server's own sessions and calls
// with it, answered 503 for half an hour. Past framework.mcp.max-sessions the session idle the longest is ended (its
// client is answered 404 and starts a new one, as after a timeout); a session running a call or holding its stream
// is never ended so, and when all are, initialize answers a 503 problem with Retry-After.
import { Observable } from 'rxjs';
import { McpServer, RestApplication, Tool, type RestApp, type RunningServer } from '../../lib';
import { initializeRequest, MCP_HEADERS } from '../support/mcp';
import { openSse, type SseConnection } from '../support/sse-client';

@McpServer('/mcp')
class Bounded {
  @Tool({ description: 'Runs until its client leaves' })
  forever(): Observable<string> {
    return new Observable<string>(() => undefined);
  }
}

const MAX_SESSIONS = 3;

let app: RestApp;
let server: RunningServer;
beforeAll(async () => {
  app = RestApplication.build({
    classes: [Bounded],
    overrides: {
      'framework.rest.sse.keep-alive': '0',
      'framework.broadcast.max-topics': 10,
      'framework.mcp.max-sessions': MAX_SESSIONS,
      'framework.broadcast.max-event-size': '4K',
    },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

const post = (body: unknown, session?: string) =>
  fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      ...MCP_HEADERS,
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
    },
    body: JSON.stringify(body),
  });

async function initialize(): Promise<{ status: number; session: string | null; body: string }> {
  const answer = await post(initializeRequest());
  return { status: answer.status, session: answer.headers.get('mcp-session-id'), body: await answer.text() };
}

async function ping(session: string): Promise<number> {
  const answer = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, session);
  await answer.text();
  return answer.status;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('MCP sessions past framework.mcp.max-sessions', () => {
  it('end the session idle the longest: a flood of initialize never holds more, and broadcasts go on', async () => {
    const opened: string[] = [];
    for (let n = 0; n < 30; n++) {
      const { status, session, body } = await initialize();
      expect([n, status, status === 200 ? '' : body]).toEqual([n, 200, '']);
      opened.push(session!);
    }
    // The last three are held; the first are over, as after a timeout.
    const statuses = await Promise.all(opened.map(ping));
    expect(statuses.slice(-MAX_SESSIONS)).toEqual(new Array(MAX_SESSIONS).fill(200));
    expect(statuses.slice(0, -MAX_SESSIONS)).toEqual(new Array(30 - MAX_SESSIONS).fill(404));
    // The process's topics were not filled by them.
    await expect(app.broadcast('news').publish('still publishing')).resolves.toMatch(/^\d+-\d+$/);
  });

  it('keep the session used last and those in use: all in use, initialize answers 503 with Retry-After', async () => {
    const sessions: string[] = [];
    for (let n = 0; n < MAX_SESSIONS; n++) sessions.push((await initialize()).session!);
    await settle(5);
    expect(await ping(sessions[0]!)).toBe(200);
    // The second is idle the longest now: the next initialize ends it, not the first.
    const fourth = (await initialize()).session!;
    expect(await Promise.all([...sessions, fourth].map(ping))).toEqual([200, 404, 200, 200]);
    const held = [sessions[0]!, sessions[2]!, fourth];
    const streams: SseConnection[] = await Promise.all(
      held.map((session) =>
        openSse(`${server.url}/mcp`, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
      ),
    );
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200]);
    const refused = await post(initializeRequest());
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '5']);
    expect(((await refused.json()) as { code: string }).code).toBe('RXREST_MCP_SESSION_CAPACITY');
    // A stream given back makes its session idle again: the next initialize takes its place.
    streams[1]!.cut();
    await settle(50);
    expect((await initialize()).status).toBe(200);
    expect(await ping(held[1]!)).toBe(404);
    for (const stream of streams) stream.cut();
  });

  it('end no session for an initialize the store refuses: a stranger cannot push the idle ones out for nothing', async () => {
    await settle(50); // the streams the last spec cut are given back: their sessions are idle
    const sessions: string[] = [];
    for (let n = 0; n < MAX_SESSIONS; n++) sessions.push((await initialize()).session!);
    // Its session's first event passes framework.broadcast.max-event-size: the store refuses it (413).
    const large = initializeRequest() as { params: { clientInfo: Record<string, string> } };
    large.params.clientInfo = { name: 'x'.repeat(8192), version: '1' };
    for (let n = 0; n < MAX_SESSIONS; n++) {
      const refused = await post(large);
      expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([
        413,
        'RXREST_BROADCAST_EVENT_TOO_LARGE',
      ]);
    }
    expect(await Promise.all(sessions.map(ping))).toEqual(new Array(MAX_SESSIONS).fill(200));
  });
});
