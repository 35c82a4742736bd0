// The bounds of MCP sessions hold when the store answers later, over a real socket and a real redis-server (Redis
// Streams): a session and a subscription are kept once the store holds them, so requests that come together were each
// checked against what the others had not stored yet. Ten initialize at once against max-sessions=3 kept ten
// sessions, and one batch of subscriptions grew a session to twice what one event of the store holds.
import { McpResource, McpServer, RestApplication, type RunningServer } from '../../lib';
import { initializeRequest, MCP_HEADERS } from '../support/mcp';
import { redisServer } from '../support/redis-server';
import { until } from '../support/until';

@McpServer('/mcp')
class Items {
  @McpResource({ uriTemplate: 'items://{id}', name: 'item' })
  item(vars: { id: string }): string {
    return `item ${vars.id}`;
  }
}

const MAX_SESSIONS = 3;
const redis = redisServer();
let server: RunningServer;

beforeAll(async () => {
  await redis.start();
  const app = RestApplication.build({
    classes: [Items],
    overrides: {
      'framework.broadcast.backend': 'redis-streams',
      'framework.broadcast.redis.url': redis.url,
      'framework.broadcast.max-event-size': '4K',
      'framework.mcp.max-sessions': MAX_SESSIONS,
    },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  // Serving once its connection to Redis is up (until then a session cannot be stored).
  await until(async () => ((await initialize()).status === 200 ? true : undefined), 'the store to be ready');
}, 60_000);
afterAll(async () => {
  await server.close();
  await redis.kill();
});

function post(body: unknown, session?: string): Promise<Response> {
  const headers: Record<string, string> = session
    ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }
    : {};
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
}

async function initialize(): Promise<{ status: number; session: string }> {
  const answer = await post(initializeRequest());
  await answer.text();
  return { status: answer.status, session: answer.headers.get('mcp-session-id') ?? '' };
}

async function ping(session: string): Promise<number> {
  const answer = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, session);
  await answer.text();
  return answer.status;
}

describe('MCP bounds on Redis Streams', () => {
  it('holds max-sessions against initialize requests sent together', async () => {
    const opened = await Promise.all(Array.from({ length: 10 }, () => initialize()));
    // Those past the limit while the others are still being stored may be refused (503, all in use), never kept.
    expect(opened.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true);
    const sessions = opened.filter((answer) => answer.status === 200).map((answer) => answer.session);
    expect(sessions.length).toBeGreaterThanOrEqual(MAX_SESSIONS);
    const held = (await Promise.all(sessions.map((session) => ping(session)))).filter((status) => status === 200);
    expect(held.length).toBeLessThanOrEqual(MAX_SESSIONS);
  }, 30_000);

  it('holds the subscriptions of one batch to what one event of the store holds', async () => {
    const { session } = await initialize();
    // Each alone fits in 4K; the 20 are 10K.
    const batch = Array.from({ length: 20 }, (_, n) => ({
      jsonrpc: '2.0',
      id: n,
      method: 'resources/subscribe',
      params: { uri: `items://${n}-${'x'.repeat(500)}` },
    }));
    const answers = (await (await post(batch, session)).json()) as { result?: unknown; error?: { code: number } }[];
    const taken = answers.filter((answer) => answer.result !== undefined).length;
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThan(8);
    expect(answers.filter((answer) => answer.error?.code === -32602)).toHaveLength(20 - taken);
  }, 30_000);
});
