// The session set aside to make room past framework.mcp.max-sessions is ended only once the new session is stored,
// over a real socket and a real redis-server (Redis Streams): should its client open its stream meanwhile (the store
// slow to answer), it is in use, and a session in use is never pushed out; with no other idle one, the new session
// is ended again and its initialize answered 503 (RXREST_MCP_SESSION_CAPACITY), as when every session is in use.
import { McpServer, RestApplication, Tool, type RunningServer } from '../../lib';
import { initializeRequest, MCP_HEADERS, openLiveSession, sendLive } from '../support/mcp';
import { redisServer } from '../support/redis-server';
import { until } from '../support/until';

@McpServer('/mcp')
class Small {
  @Tool({ description: 'Answers at once' })
  hello(): string {
    return 'hello';
  }
}

const redis = redisServer();
let server: RunningServer;

beforeAll(async () => {
  await redis.start();
  server = await RestApplication.build({
    classes: [Small],
    overrides: {
      'framework.broadcast.backend': 'redis-streams',
      'framework.broadcast.redis.url': redis.url,
      'framework.rest.sse.keep-alive': '0',
      'framework.mcp.max-sessions': 1,
    },
  }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  await until(async () => ((await fetch(`${server.url}/q/health/ready`)).ok ? true : undefined), 'Redis');
}, 60_000);
afterAll(async () => {
  redis.thaw();
  await server.close();
});

describe('a session set aside for a new one past max-sessions', () => {
  it('stays when its client takes it up while the new one is being stored: the new one is refused 503', async () => {
    const held = await openLiveSession(`${server.url}/mcp`);
    const headers = { 'mcp-session-id': held, 'mcp-protocol-version': '2025-11-25' };
    // The store stops answering: the new session's first event waits.
    redis.freeze();
    const opening = fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify(initializeRequest()),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Meanwhile its client opens the session's stream: it is in use now.
    const stream = await sendLive(`${server.url}/mcp`, 'GET', { accept: 'text/event-stream', ...headers });
    expect(stream.status).toBe(200);
    redis.thaw();
    const opened = await opening;
    expect([opened.status, ((await opened.json()) as { code?: string }).code]).toEqual([
      503,
      'RXREST_MCP_SESSION_CAPACITY',
    ]);
    const ping = await sendLive(
      `${server.url}/mcp`,
      'POST',
      { ...MCP_HEADERS, ...headers },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
      },
    );
    await ping.ended;
    expect(ping.status).toBe(200);
    // Its stream goes on.
    const ended = await Promise.race([
      stream.ended.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 200)),
    ]);
    expect(ended).toBe(false);
    stream.cut();
  }, 30_000);
});
