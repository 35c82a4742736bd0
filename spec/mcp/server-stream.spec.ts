import {
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { McpResource, McpServer, mcpNotifier, Tool, type RunningServer } from '../../lib';
import { buildApp } from '../support/app';
import {
  connectClient,
  MCP_HEADERS,
  mcpPost,
  openLiveSession,
  openSession,
  sendLive,
  type LiveAnswer,
} from '../support/mcp';
import { until } from '../support/until';

@McpServer('/mcp')
class Watched {
  @McpResource({ uri: 'test://watched' })
  watched(): string {
    return 'now';
  }

  @McpResource({ uri: 'test://other' })
  other(): string {
    return 'other';
  }

  @Tool({ description: 'Does nothing' })
  idle(): string {
    return 'ok';
  }
}

let server: RunningServer;
let url: string;
const notifier = mcpNotifier(Watched);

beforeAll(async () => {
  server = await buildApp([Watched], { 'framework.mcp.session-timeout': '400ms' }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
  url = `${server.url}/mcp`;
});

afterAll(() => server.close());

const subscribe = (session: string, uri: string) =>
  sendLive(
    url,
    'POST',
    { ...MCP_HEADERS, 'mcp-session-id': session },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/subscribe',
      params: { uri },
    },
  ).then((answer) => answer.ended);

const openGet = (session: string, headers: Record<string, string> = {}): Promise<LiveAnswer> =>
  sendLive(url, 'GET', { accept: 'text/event-stream', 'mcp-session-id': session, ...headers });

const methods = (answer: LiveAnswer) =>
  answer.events
    .filter((event) => event.data !== '')
    .map((event) => JSON.parse(event.data) as { method: string; params: unknown });

describe('the GET stream', () => {
  it("sends a resource's updates to the sessions subscribed to it, and list changes to every session", async () => {
    const session = await openLiveSession(url);
    await subscribe(session, 'test://watched');
    const stream = await openGet(session);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    await notifier.resourceUpdated('test://other');
    await notifier.resourceUpdated('test://watched');
    await notifier.listChanged('tools');
    await stream.until((events) => events.length >= 2);
    expect(methods(stream)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://watched' } },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} },
    ]);
    expect(stream.events.every((event) => /^notices_\d+-\d+$/.test(event.id!))).toBe(true);
    stream.cut();
  });

  it('reaches the official client, whose GET stream opens after it initialized', async () => {
    const { client } = await connectClient(url);
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await client.subscribeResource({ uri: 'test://watched' });
    // The client opens its stream by itself, a moment after initializing: announce until it hears.
    await until(async () => (await notifier.listChanged('tools'), changed > 0 ? true : undefined), 'the stream');
    await notifier.resourceUpdated('test://watched');
    await until(() => (updates.length > 0 ? updates : undefined), 'the update');
    expect(updates).toEqual(['test://watched']);
    await client.close();
  });

  it('is one per session: a second answers 409', async () => {
    const session = await openLiveSession(url);
    const first = await openGet(session);
    const second = await openGet(session);
    expect(second.status).toBe(409);
    first.cut();
    await until(async () => {
      const again = await openGet(session);
      if (again.status !== 200) return undefined;
      again.cut();
      return true;
    }, 'the stream to be free again');
  });

  it('answers 406 to a client that does not accept SSE', async () => {
    const session = await openLiveSession(url);
    const answer = await openGet(session, { accept: 'application/json' });
    expect(answer.status).toBe(406);
  });

  it('resumes after the Last-Event-ID it was cut at: what was missed, then live', async () => {
    const session = await openLiveSession(url);
    const stream = await openGet(session);
    await notifier.listChanged('prompts');
    await stream.until((events) => events.length === 1);
    stream.cut();
    await stream.ended;
    await notifier.listChanged('resources');
    await notifier.listChanged('tools');
    const resumed = await openGet(session, { 'last-event-id': stream.events[0]!.id! });
    await resumed.until((events) => events.length === 2);
    await notifier.listChanged('prompts');
    await resumed.until((events) => events.length === 3);
    expect(methods(resumed).map((message) => message.method)).toEqual([
      'notifications/resources/list_changed',
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
    ]);
    resumed.cut();
  });

  it('answers 400 to a Last-Event-ID that is none of its events', async () => {
    const session = await openLiveSession(url);
    expect((await openGet(session, { 'last-event-id': 'garbage' })).status).toBe(400);
  });
});

describe('session expiry', () => {
  it('ends a session after framework.mcp.session-timeout without a request: it answers 404 then', async () => {
    const app = buildApp([Watched], { 'framework.mcp.session-timeout': '150ms' });
    const session = await openSession(app);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await mcpPost(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, session)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await mcpPost(app, { jsonrpc: '2.0', id: 2, method: 'ping' }, session)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await mcpPost(app, { jsonrpc: '2.0', id: 3, method: 'ping' }, session)).status).toBe(404);
  });

  it('keeps a session whose stream is open, and ends the stream with it when it is deleted', async () => {
    const session = await openLiveSession(url);
    const stream = await openGet(session);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const ping = await sendLive(
      url,
      'POST',
      { ...MCP_HEADERS, 'mcp-session-id': session },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
    );
    expect(ping.status).toBe(200);
    const deleted = await sendLive(url, 'DELETE', { 'mcp-session-id': session });
    expect(deleted.status).toBe(200);
    await stream.ended;
  });
});
