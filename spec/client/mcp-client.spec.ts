// McpClient (rxrest/client) against an rxrest MCP server and against the official SDK's own server, over real
// sockets: a tool's progress as items as they come, then its result; a cut stream resumed with Last-Event-ID; a call
// given up cancelled on the server; the server's sampling request answered by a handler; an expired session reopened.
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer as SdkServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { firstValueFrom, interval, lastValueFrom, map, Observable, take, toArray, endWith } from 'rxjs';
import { z } from 'zod';
import { McpClient, McpClientError } from '../../lib/client';
import { McpCall, McpServer, progressNotice, Tool, type McpNotice, type RunningServer } from '../../lib';
import { buildApp } from '../support/app';
import { Switchboard } from '../support/mcp';
import { until } from '../support/until';

const seen = { stopped: 0 };

@McpServer('/mcp')
class Counting {
  @Tool({ description: 'Counts', input: z.object({ n: z.number().int(), delayMs: z.number().int() }) })
  count(args: { n: number; delayMs: number }): Observable<McpNotice | string> {
    return new Observable<McpNotice | string>((subscriber) => {
      const subscription = interval(args.delayMs)
        .pipe(
          take(args.n),
          map((k) => progressNotice(k + 1, args.n, `step ${k + 1}`)),
          endWith(`done ${args.n}`),
        )
        .subscribe(subscriber);
      return () => (seen.stopped++, subscription.unsubscribe());
    });
  }

  @Tool({ description: 'Asks the model', input: z.object({ question: z.string() }) })
  ask(args: { question: string }, call: McpCall): Observable<string> {
    return call
      .sample({ messages: [{ role: 'user', content: { type: 'text', text: args.question } }], maxTokens: 10 })
      .pipe(map((answer) => `model: ${String(answer.content.text)}`));
  }
}

let server: RunningServer;
let url: string;

beforeAll(async () => {
  server = await buildApp([Counting], {
    'framework.mcp.sse-retry': '50ms',
    'framework.mcp.session-timeout': '300ms',
  }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
  url = `${server.url}/mcp`;
});

afterAll(() => server.close());

describe('McpClient', () => {
  it("emits a tool's progress as it comes, then its result", async () => {
    const client = new McpClient(url);
    const events = await lastValueFrom(client.callToolEvents('count', { n: 3, delayMs: 10 }).pipe(toArray()));
    expect(events).toEqual([
      { type: 'progress', progress: 1, total: 3, message: 'step 1' },
      { type: 'progress', progress: 2, total: 3, message: 'step 2' },
      { type: 'progress', progress: 3, total: 3, message: 'step 3' },
      { type: 'result', result: { content: [{ type: 'text', text: 'done 3' }] } },
    ]);
    expect(await firstValueFrom(client.callTool('count', { n: 1, delayMs: 1 }))).toEqual({
      content: [{ type: 'text', text: 'done 1' }],
    });
    expect((await firstValueFrom(client.listTools())).map((tool) => tool.name)).toEqual(['count', 'ask']);
    await client.close();
  });

  it('resumes a stream cut mid-call with Last-Event-ID: every progress once, then the result', async () => {
    const board = new Switchboard(server.url);
    board.cutAfter = 2;
    const client = new McpClient(url, { fetch: board.fetch });
    const events = await lastValueFrom(client.callToolEvents('count', { n: 6, delayMs: 20 }).pipe(toArray()));
    expect(board.resumedFrom).toHaveLength(1);
    expect(events.map((event) => (event.type === 'progress' ? event.progress : event.type))).toEqual([
      1,
      2,
      3,
      4,
      5,
      6,
      'result',
    ]);
    await client.close();
  });

  it('cancels the call on the server when unsubscribed before the result', async () => {
    const client = new McpClient(url);
    const stopped = seen.stopped;
    // Unsubscribes once the call runs on the server (its first progress is in), not after a guess: a call not yet
    // there when the client lets go is never started, and there is nothing to stop.
    let running: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (running = resolve));
    const subscription = client.callToolEvents('count', { n: 1000, delayMs: 20 }).subscribe(() => running());
    await started;
    subscription.unsubscribe();
    await until(() => (seen.stopped > stopped ? true : undefined), 'the call to stop');
    await client.close();
  });

  it("answers the server's sampling request with its handler", async () => {
    const client = new McpClient(url, {
      sampling: (params) =>
        Promise.resolve({
          role: 'assistant',
          content: { type: 'text', text: `re: ${JSON.stringify(params.maxTokens)}` },
          model: 'spec',
        }),
    });
    expect(await firstValueFrom(client.callTool('ask', { question: '?' }))).toEqual({
      content: [{ type: 'text', text: 'model: re: 10' }],
    });
    await client.close();
  });

  it('fails with the JSON-RPC error of the server, and opens a new session when its own expired', async () => {
    const client = new McpClient(url);
    await expect(firstValueFrom(client.callTool('nope'))).rejects.toEqual(
      new McpClientError(-32602, 'Unknown tool: nope'),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await firstValueFrom(client.callTool('count', { n: 1, delayMs: 1 }))).toEqual({
      content: [{ type: 'text', text: 'done 1' }],
    });
    await client.close();
  });
});

describe('McpClient against the official SDK server', () => {
  let sdk: Server;
  let sdkUrl: string;

  beforeAll(async () => {
    const transports = new Map<string, StreamableHTTPServerTransport>();
    sdk = createServer((req, res) => {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? transports.get(id) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (session) => void transports.set(session, transport!),
        });
        const mcp = new SdkServer({ name: 'sdk', version: '1.0.0' });
        mcp.registerTool('count', { description: 'Counts', inputSchema: { n: z.number() } }, async ({ n }, extra) => {
          for (let k = 1; k <= n; k++)
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: extra._meta!.progressToken!, progress: k, total: n },
            });
          return { content: [{ type: 'text', text: `done ${n}` }] };
        });
        void mcp.connect(transport);
      }
      void transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => sdk.listen(0, '127.0.0.1', resolve));
    sdkUrl = `http://127.0.0.1:${(sdk.address() as { port: number }).port}/mcp`;
  });

  afterAll(() => new Promise<void>((resolve) => sdk.close(() => resolve())));

  it("reads the SDK server's SSE answers: progress items, then the result", async () => {
    const client = new McpClient(sdkUrl);
    const events = await lastValueFrom(client.callToolEvents('count', { n: 2 }).pipe(toArray()));
    expect(events).toEqual([
      { type: 'progress', progress: 1, total: 2 },
      { type: 'progress', progress: 2, total: 2 },
      { type: 'result', result: { content: [{ type: 'text', text: 'done 2' }] } },
    ]);
    await client.close();
  });
});
