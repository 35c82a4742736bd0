import { z } from 'zod';
import { McpServer, Tool } from '../../lib';
import { buildApp, call } from '../support/app';
import { initializeRequest, MCP_HEADERS, mcpPost, openSession, rpc, sseEvents, sseMessages } from '../support/mcp';

@McpServer('/mcp', { name: 'transport-spec', version: '2.0.0', instructions: 'Greet people.' })
class Greeter {
  @Tool({ description: 'Says hello', input: z.object({ name: z.string() }) })
  hello(args: { name: string }): string {
    return `Hello, ${args.name}!`;
  }

  @Tool({ description: 'Says hello, after a while', input: z.object({ name: z.string() }) })
  async slowHello(args: { name: string }): Promise<string> {
    // Long enough to be past the next turn of the event loop even when a loaded machine stalls the turn (5 ms once
    // answered first, as plain JSON, in a full run at load 22).
    await new Promise((resolve) => setTimeout(resolve, 100));
    return `Hello, ${args.name}!`;
  }
}

const app = buildApp([Greeter]);
const ping = (id: number | string = 1) => ({ jsonrpc: '2.0', id, method: 'ping' });
const hello = (id = 1, name = 'hello') => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: { name: 'Ada' } },
});

describe('initialize', () => {
  it('opens a session, answered as JSON with its id, the version, the capabilities and the server', async () => {
    const response = await mcpPost(app, initializeRequest('2025-11-25'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('mcp-session-id')).toMatch(/^[\x21-\x7e]+$/);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 0,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { logging: {}, tools: { listChanged: true } },
        serverInfo: { name: 'transport-spec', version: '2.0.0' },
        instructions: 'Greet people.',
      },
    });
  });

  it("keeps the client's version when it is one it speaks, else answers the latest", async () => {
    const older = await rpc(await mcpPost(app, initializeRequest('2025-06-18')));
    expect(older.result?.protocolVersion).toBe('2025-06-18');
    const oldest = await rpc(await mcpPost(app, initializeRequest('2025-03-26')));
    expect(oldest.result?.protocolVersion).toBe('2025-03-26');
    const unknown = await rpc(await mcpPost(app, initializeRequest('2024-01-01')));
    expect(unknown.result?.protocolVersion).toBe('2025-11-25');
  });

  it('must come alone', async () => {
    const response = await mcpPost(app, [initializeRequest(), ping()]);
    expect(response.status).toBe(400);
    expect((await rpc(response)).error?.code).toBe(-32600);
  });

  it('gives every session its own id', async () => {
    expect(await openSession(app)).not.toBe(await openSession(app));
  });
});

describe('POST refusals', () => {
  it('answers 400 to a request without a session, 404 to an unknown one, as JSON-RPC errors', async () => {
    const missing = await mcpPost(app, ping());
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' },
    });
    const unknown = await mcpPost(app, ping(), 'no-such-session');
    expect(unknown.status).toBe(404);
    expect((await rpc(unknown)).error?.code).toBe(-32001);
  });

  it('answers 406 to a client that does not accept both JSON and SSE, 415 to a body that is not JSON', async () => {
    const session = await openSession(app);
    const onlyJson = await mcpPost(app, ping(), session, { accept: 'application/json' });
    expect(onlyJson.status).toBe(406);
    const vetoed = await mcpPost(app, ping(), session, { accept: 'application/json, text/event-stream;q=0' });
    expect(vetoed.status).toBe(406);
    const anything = await mcpPost(app, ping(), session, { accept: '*/*' });
    expect(anything.status).toBe(200);
    const text = await mcpPost(app, ping(), session, { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
  });

  it('answers 400 with -32700 to malformed JSON and -32600 to what is not JSON-RPC', async () => {
    const session = await openSession(app);
    const malformed = await mcpPost(app, '{"jsonrpc":', session);
    expect(malformed.status).toBe(400);
    expect((await rpc(malformed)).error?.code).toBe(-32700);
    for (const body of [{ id: 1, method: 'ping' }, [], { jsonrpc: '2.0', id: 1, method: 'ping', params: [1] }, 42]) {
      const invalid = await mcpPost(app, body, session);
      expect(invalid.status).toBe(400);
      expect((await rpc(invalid)).error?.code).toBe(-32600);
    }
  });

  it('answers 400 to a protocol version header it does not speak, and takes the ones it does', async () => {
    const session = await openSession(app);
    const wrong = await mcpPost(app, ping(), session, { 'mcp-protocol-version': '1999-01-01' });
    expect(wrong.status).toBe(400);
    expect((await rpc(wrong)).error?.message).toContain('Unsupported protocol version: 1999-01-01');
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26'])
      expect((await mcpPost(app, ping(), session, { 'mcp-protocol-version': version })).status).toBe(200);
  });
});

describe('POST answers', () => {
  it('takes notifications and responses with 202 and no body', async () => {
    const session = await openSession(app);
    const response = await mcpPost(app, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('answers ping with an empty result, as JSON', async () => {
    const session = await openSession(app);
    const response = await mcpPost(app, ping('a'), session);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('mcp-session-id')).toBe(session);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 'a', result: {} });
  });

  it('answers an unknown method with -32601, and a batch with its responses in order', async () => {
    const session = await openSession(app);
    const response = await mcpPost(app, [ping(1), { jsonrpc: '2.0', id: 2, method: 'no/such' }], session);
    expect(await response.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: no/such' } },
    ]);
  });

  it('answers other requests as SSE too when the client would rather (listed first, or weighed higher)', async () => {
    const session = await openSession(app);
    for (const accept of ['text/event-stream, application/json', 'application/json;q=0.5, text/event-stream']) {
      const response = await mcpPost(app, ping(3), session, { accept });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(sseMessages(await response.text())).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]);
    }
    const json = await mcpPost(app, ping(4), session, { accept: 'application/json, text/event-stream' });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers a call whose result is ready at once as JSON, to a client that takes JSON as gladly', async () => {
    const session = await openSession(app);
    const response = await mcpPost(app, hello(6), session);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 6,
      result: { content: [{ type: 'text', text: 'Hello, Ada!' }] },
    });
    const streamed = await mcpPost(app, hello(6), session, { accept: 'text/event-stream, application/json' });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
  });

  it('answers a tool call that takes a while on an SSE stream: a priming event with an id, a retry and no data, then the result', async () => {
    const session = await openSession(app);
    const response = await mcpPost(app, hello(7, 'slowHello'), session);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('mcp-session-id')).toBe(session);
    const events = sseEvents(await response.text());
    expect(events[0]).toEqual({ id: expect.stringMatching(/_\d+-\d+$/), retry: '1000', data: '' });
    expect(events[1]!.id).toMatch(/_\d+-\d+$/);
    expect(events[1]!.event).toBe('message');
    expect(JSON.parse(events[1]!.data)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: 'Hello, Ada!' }] },
    });
    expect(events).toHaveLength(2);
  });

  it('sends no priming event to a client of a version before 2025-11-25 (it would read its empty data as a message)', async () => {
    const session = await openSession(app, '2025-06-18');
    const text = await (
      await mcpPost(app, hello(1, 'slowHello'), session, { 'mcp-protocol-version': '2025-06-18' })
    ).text();
    expect(sseEvents(text).every((event) => event.data !== '')).toBe(true);
    expect(sseMessages(text)).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'Hello, Ada!' }] } },
    ]);
  });
});

describe('DELETE', () => {
  it('ends the session: later requests naming it answer 404', async () => {
    const session = await openSession(app);
    const deleted = await call(app, '/mcp', { method: 'DELETE', headers: { 'mcp-session-id': session } });
    expect(deleted.status).toBe(200);
    expect((await mcpPost(app, ping(), session)).status).toBe(404);
  });
});

describe('other methods', () => {
  it('answers 405 naming the three methods of the transport', async () => {
    const response = await call(app, '/mcp', { method: 'PUT', headers: MCP_HEADERS, body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toEqual(expect.stringContaining('POST'));
    expect(response.headers.get('allow')).toEqual(expect.stringContaining('DELETE'));
  });
});
