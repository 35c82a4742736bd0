// MCP across instances on Redis Streams, against a real redis-server syncing every write to its append-only file and
// samples instances in processes of their own: a session opened on one is served by another; a call stream cut on
// one is resumed by the official SDK client on another, with every notification once, in order, then the result;
// the same after the first instance was killed (kill -9) once the call was done; a call whose instance is killed
// mid-call answered with an error, not silence; a cancellation sent to one instance stopping the call on another.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { redisServer } from '../support/redis-server';
import { startSamples, type SamplesProcess } from '../support/samples-process';
import { MCP_HEADERS, openLiveSession, sendLive, sseMessages, Switchboard } from '../support/mcp';
import { until } from '../support/until';

const redis = redisServer({ appendOnly: true });
const instances: SamplesProcess[] = [];

const start = async (): Promise<SamplesProcess> => {
  const instance = await startSamples({
    FRAMEWORK_BROADCAST_BACKEND: 'redis-streams',
    FRAMEWORK_BROADCAST_REDIS_URL: redis.url,
    FRAMEWORK_MCP_SSE_RETRY: '100ms',
  });
  instances.push(instance);
  // Serving once its connections to Redis are up (until then it would answer 503).
  await until(async () => {
    const ready = await fetch(`${instance.url}/q/health/ready`).catch(() => undefined);
    return ready?.status === 200 ? true : undefined;
  }, 'the instance to be ready');
  return instance;
};

let first: SamplesProcess;
let second: SamplesProcess;
/** An instance started late (after the first was killed). */
let late: SamplesProcess;

beforeAll(async () => {
  await redis.start();
  [first, second] = await Promise.all([start(), start()]);
}, 120_000);

afterAll(async () => {
  for (const instance of instances) {
    instance.crash();
    await instance.exited;
  }
});

async function clientThrough(board: Switchboard): Promise<Client> {
  const client = new Client({ name: 'across', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${board.base}/mcp`), { fetch: board.fetch }));
  return client;
}

const countSlow = (n: number, delayMs: number) => ({ name: 'count_slow', arguments: { n, delayMs } });

describe('MCP on two instances sharing Redis Streams', () => {
  it('serves a session opened on one instance on the other, with what it asked for there', async () => {
    const session = await openLiveSession(`${first.url}/mcp`);
    const headers = { ...MCP_HEADERS, 'mcp-session-id': session };
    const listed = await sendLive(`${second.url}/mcp`, 'POST', headers, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
    });
    await listed.ended;
    expect(listed.status).toBe(200);
    expect(listed.text()).toContain('count_slow');
    const unknown = await sendLive(
      `${second.url}/mcp`,
      'POST',
      { ...MCP_HEADERS, 'mcp-session-id': 'nope' },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
    );
    expect(unknown.status).toBe(404);
  }, 30_000);

  it('resumes a call stream cut on one instance on the other: every progress once, in order, then the result', async () => {
    const board = new Switchboard(first.url);
    const client = await clientThrough(board);
    board.cutAfter = 3;
    let release = () => undefined as void;
    board.hold = new Promise<void>((resolve) => (release = resolve));
    const progress: number[] = [];
    const call = client.callTool(countSlow(12, 100), undefined, { onprogress: (p) => progress.push(p.progress) });
    await board.cut;
    board.base = second.url;
    release();
    const result = await call;
    expect(board.resumedFrom).toHaveLength(1);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(result.content).toEqual([{ type: 'text', text: 'done 12' }]);
    await client.close();
  }, 30_000);

  it('stops a call running on one instance when the client cancels it through the other', async () => {
    const session = await openLiveSession(`${first.url}/mcp`);
    const headers = { ...MCP_HEADERS, 'mcp-session-id': session };
    const call = await sendLive(`${first.url}/mcp`, 'POST', headers, {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { ...countSlow(100, 100), _meta: { progressToken: 'p' } },
    });
    await call.until((events) => events.length >= 3);
    const cancelled = await sendLive(`${second.url}/mcp`, 'POST', headers, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 5, reason: 'changed my mind' },
    });
    expect(cancelled.status).toBe(202);
    const started = Date.now();
    await call.ended;
    // The stream ended at once (100 steps would take 10 s), with no response: MCP sends none to a cancelled request.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(sseMessages(call.text()).filter((message) => 'result' in message || 'error' in message)).toEqual([]);
  }, 30_000);

  it('replays a call that finished while its client was away, on the other instance, after the first was killed', async () => {
    const board = new Switchboard(first.url);
    const client = await clientThrough(board);
    board.cutAfter = 2;
    let release = () => undefined as void;
    board.hold = new Promise<void>((resolve) => (release = resolve));
    const progress: number[] = [];
    const call = client.callTool(countSlow(8, 50), undefined, { onprogress: (p) => progress.push(p.progress) });
    await board.cut;
    // The call ends on the first instance while nobody reads it; then that instance dies (kill -9). Its 8 steps take
    // 400 ms; a loaded machine gets 3 s (too early and the call is answered with an error, and this test fails).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    first.crash();
    await first.exited;
    board.base = second.url;
    release();
    const result = await call;
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(result.content).toEqual([{ type: 'text', text: 'done 8' }]);
    await client.close();
  }, 30_000);

  it('answers a call whose instance was killed mid-call with an error, on the instance the client comes back to', async () => {
    const third = await start();
    const board = new Switchboard(third.url);
    const client = await clientThrough(board);
    board.cutAfter = 2;
    let release = () => undefined as void;
    board.hold = new Promise<void>((resolve) => (release = resolve));
    const call = client.callTool(countSlow(1000, 100), undefined, { onprogress: () => undefined });
    await board.cut;
    third.crash();
    await third.exited;
    board.base = second.url;
    release();
    const started = Date.now();
    await expect(call).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('The call was lost') });
    expect(Date.now() - started).toBeLessThan(12_000);
    await client.close();
  }, 90_000);

  it('keeps what a session asked for on one instance on the others: its log level', async () => {
    const session = await openLiveSession(`${second.url}/mcp`);
    const headers = { ...MCP_HEADERS, 'mcp-session-id': session };
    const setLevel = await sendLive(`${second.url}/mcp`, 'POST', headers, {
      jsonrpc: '2.0',
      id: 1,
      method: 'logging/setLevel',
      params: { level: 'error' },
    });
    await setLevel.ended;
    late = await start();
    const logged = await sendLive(`${late.url}/mcp`, 'POST', headers, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'test_tool_with_logging' },
    });
    await logged.ended;
    // The session's level (error) was set on another instance: none of the tool's info messages is sent.
    expect(sseMessages(logged.text()).map((message) => message.method ?? 'response')).toEqual(['response']);
  }, 90_000);

  it("takes the client's answer to a tool's sampling request through another instance than the call's", async () => {
    const board = new Switchboard(second.url);
    const client = new Client({ name: 'sampled', version: '1.0.0' }, { capabilities: { sampling: {} } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${board.base}/mcp`), { fetch: board.fetch }));
    client.setRequestHandler(CreateMessageRequestSchema, () => {
      // The answer goes to the other instance; the call runs on this one.
      board.base = late.url;
      return { role: 'assistant', content: { type: 'text', text: 'from afar' }, model: 'spec' };
    });
    const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hello?' } });
    expect(result.content).toEqual([{ type: 'text', text: 'LLM response: from afar' }]);
    await client.close();
  }, 30_000);
});
