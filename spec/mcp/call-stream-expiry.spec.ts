// A tool call's stream on Redis Streams is kept for its client to come back to, not for the broadcast retention's
// hour, over a real socket and a real redis-server: once the call has ended, its stream expires one call-grace after
// (at least a minute, so that the instances reading it live hear its end), and a resume after that answers 404 at once.
// It used to stay an hour (up to retention.max-bytes a call: a stranger's calls by the thousand filled Redis), and a
// resume of a stream Redis no longer held waited forever on the word of its readers' presence.
import { Redis } from 'ioredis';
import { McpServer, RestApplication, Tool, type RunningServer } from '../../lib';
import { MCP_HEADERS, openLiveSession, sendLive, sseEvents } from '../support/mcp';
import { redisServer } from '../support/redis-server';
import { until } from '../support/until';

@McpServer('/mcp')
class Quick {
  @Tool({ description: 'Answers at once' })
  hello(): string {
    return 'hello';
  }
}

const redis = redisServer();
let server: RunningServer;
let client: Redis;

beforeAll(async () => {
  await redis.start();
  server = await RestApplication.build({
    classes: [Quick],
    overrides: {
      'framework.broadcast.backend': 'redis-streams',
      'framework.broadcast.redis.url': redis.url,
      'framework.rest.sse.keep-alive': '0',
      'framework.mcp.call-grace': '2m',
    },
  }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  await until(async () => ((await fetch(`${server.url}/q/health/ready`)).ok ? true : undefined), 'Redis');
  client = new Redis(redis.url);
}, 60_000);
afterAll(async () => {
  client.disconnect();
  await server.close();
});

/** Calls `hello` on a stream: the session, and the ids of the stream's events (the priming one first). */
async function call(): Promise<{ session: string; ids: string[] }> {
  const session = await openLiveSession(`${server.url}/mcp`);
  const headers = { ...MCP_HEADERS, accept: 'text/event-stream, application/json', 'mcp-session-id': session };
  const answer = await sendLive(`${server.url}/mcp`, 'POST', headers, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'hello', arguments: {} },
  });
  await answer.ended;
  const ids = sseEvents(answer.text()).map((event) => event.id!);
  expect(ids.length).toBeGreaterThanOrEqual(2);
  return { session, ids };
}

const resume = (session: string, lastEventId: string) =>
  fetch(`${server.url}/mcp`, {
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
      'last-event-id': lastEventId,
    },
    signal: AbortSignal.timeout(5000),
  });

const streamKeyOf = (session: string, eventId: string) => `rxrest:stream:mcp/${session}/${eventId.split('_')[0]}`;

describe('a tool call stream on Redis Streams, once the call has ended', () => {
  it('expires one call-grace after its end, not after the retention hour, and resumes meanwhile', async () => {
    const { session, ids } = await call();
    const key = streamKeyOf(session, ids[0]!);
    const ttl = await until(
      async () => {
        const left = await client.pttl(key);
        return left > 0 && left <= 120_000 ? left : undefined;
      },
      `the expiry of ${key} to be set`,
      5000,
    );
    expect(ttl).toBeGreaterThan(100_000);
    // Within the grace a client cut after the priming event gets the rest: the result.
    const resumed = await resume(session, ids[0]!);
    expect(resumed.status).toBe(200);
    expect(await resumed.text()).toContain('"text":"hello"');
  });

  it('answers 404 at once for a stream Redis no longer holds', async () => {
    const { session, ids } = await call();
    // As its expiry would, a moment early.
    await client.del(streamKeyOf(session, ids[0]!));
    const resumed = await resume(session, ids[0]!);
    expect(resumed.status).toBe(404);
    expect(((await resumed.json()) as { code: string }).code).toBe('RXREST_STREAM_NOT_FOUND');
  });
});
