// What an ended MCP session leaves in the store is let go within a minute, over a real socket and a real redis-server:
// on Redis Streams each session is a stream kept, like any topic, for retention.max-age (an hour) after its last
// event, so a flood of initialize (each session ended by DELETE, or pushed out past framework.mcp.max-sessions) left
// two keys of about 5 KB each in Redis per request for an hour (2,000 sessions: 4,000 keys, 9.6 MB). An ended
// session's keys now expire within a minute (the other instances hear its end live long before); an open one's keep
// the retention. In memory, the ended session's history leaves the process at once.
import { Redis } from 'ioredis';
import { McpServer, RestApplication, Tool, type RunningServer } from '../../lib';
import { initializeRequest, MCP_HEADERS } from '../support/mcp';
import { redisServer } from '../support/redis-server';
import { until } from '../support/until';

@McpServer('/mcp')
class Ended {
  @Tool({ description: 'Answers' })
  answer(): string {
    return 'yes';
  }
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

const redis = redisServer();
let client: Redis;
let server: RunningServer;
beforeAll(async () => {
  await redis.start();
  client = new Redis(redis.url, { retryStrategy: () => null });
  const app = RestApplication.build({
    classes: [Ended],
    overrides: {
      'framework.broadcast.backend': 'redis-streams',
      'framework.broadcast.redis.url': redis.url,
      'framework.mcp.max-sessions': 2,
    },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  // Serving once its connections to Redis are up (until then a publish answers 503).
  await until(
    () =>
      app
        .broadcast('ready')
        .publish(1)
        .then(
          () => true,
          () => undefined,
        ),
    'the broadcast store to be reachable',
  );
}, 30_000);
afterAll(async () => {
  await server?.close();
  client?.disconnect();
  await redis.kill();
});

async function initialize(): Promise<string> {
  const opened = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify(initializeRequest()),
  });
  await opened.text();
  expect(opened.status).toBe(200);
  return opened.headers.get('mcp-session-id')!;
}

/** The longest time to live of a session's keys in Redis, in milliseconds (-2: none left). */
async function keptFor(session: string): Promise<number> {
  const keys = await client.keys(`rxrest:*mcp-session/${session}`);
  if (keys.length === 0) return -2;
  return Math.max(...(await Promise.all(keys.map((key) => client.pttl(key)))));
}

describe('an ended MCP session on Redis Streams', () => {
  it('leaves its keys for at most a minute, whether deleted or pushed out; an open one keeps the retention', async () => {
    const deleted = await initialize();
    const ended = await fetch(`${server.url}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': deleted, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(ended.status).toBe(200);
    const pushedOut = await initialize();
    const kept = [await initialize(), await initialize()];
    // The third and fourth push out the oldest idle ones: the one deleted is gone already, so the second goes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const session of [deleted, pushedOut]) expect(await keptFor(session)).toBeLessThanOrEqual(MINUTE_MS);
    for (const session of kept) expect(await keptFor(session)).toBeGreaterThan(HOUR_MS - MINUTE_MS);
  });
});
