// Resuming MCP call streams with Last-Event-ID on one instance (the in-memory store): the official SDK's client, whose
// connection is cut mid-call, reconnects by itself and gets every notification once, in order, then the result.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { interval, map, Observable, endWith, take } from 'rxjs';
import { z } from 'zod';
import { McpServer, progressNotice, Tool, type McpNotice, type RunningServer } from '../../lib';
import { buildApp } from '../support/app';
import { MCP_HEADERS, mcpPost, openLiveSession, openSession, sendLive, sseMessages, Switchboard } from '../support/mcp';
import { until } from '../support/until';

let running = 0;

@McpServer('/mcp')
class Counter {
  @Tool({ description: 'Counts', input: z.object({ n: z.number().int(), delayMs: z.number().int() }) })
  count(args: { n: number; delayMs: number }): Observable<McpNotice | string> {
    return new Observable<McpNotice | string>((subscriber) => {
      running++;
      const subscription = interval(args.delayMs)
        .pipe(
          take(args.n),
          map((k) => progressNotice(k + 1, args.n)),
          endWith(`done ${args.n}`),
        )
        .subscribe(subscriber);
      return () => (running--, subscription.unsubscribe());
    });
  }
}

let server: RunningServer;
let url: string;

beforeAll(async () => {
  server = await buildApp([Counter], {
    'framework.mcp.sse-retry': '100ms',
    'framework.mcp.call-grace': '500ms',
  }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
  url = `${server.url}/mcp`;
});

afterAll(() => server.close());

async function clientThrough(board: Switchboard): Promise<Client> {
  const client = new Client({ name: 'resuming', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: board.fetch }));
  return client;
}

describe('a call stream cut mid-call', () => {
  it('is resumed by the SDK client with Last-Event-ID: every progress notification once, in order, then the result', async () => {
    const board = new Switchboard(server.url);
    const client = await clientThrough(board);
    board.cutAfter = 3;
    const progress: number[] = [];
    const result = await client.callTool({ name: 'count', arguments: { n: 10, delayMs: 30 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(board.resumedFrom).toHaveLength(1);
    expect(board.resumedFrom[0]).toMatch(/^[0-9a-f-]{36}_\d+-\d+$/);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(result.content).toEqual([{ type: 'text', text: 'done 10' }]);
    await client.close();
  });

  it('goes on while the client is away, and the client that comes back within the grace gets what it missed', async () => {
    const board = new Switchboard(server.url);
    const client = await clientThrough(board);
    board.cutAfter = 2;
    let release = () => undefined as void;
    board.hold = new Promise<void>((resolve) => (release = resolve));
    const progress: number[] = [];
    const call = client.callTool({ name: 'count', arguments: { n: 6, delayMs: 20 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    await board.cut;
    // The call finishes while nobody reads it.
    await until(() => (running === 0 ? true : undefined), 'the call to finish');
    release();
    const result = await call;
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    expect(result.content).toEqual([{ type: 'text', text: 'done 6' }]);
    await client.close();
  });
});

describe('resuming by hand', () => {
  async function startCall(session: string, id: number, n: number) {
    const answer = await sendLive(
      url,
      'POST',
      { ...MCP_HEADERS, 'mcp-session-id': session },
      {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'count', arguments: { n, delayMs: 20 }, _meta: { progressToken: id } },
      },
    );
    await answer.until((events) => events.length >= 2);
    answer.cut();
    return answer.events[1]!.id!;
  }

  const resumeAt = (session: string, lastEventId: string) =>
    sendLive(url, 'GET', { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': lastEventId });

  it("reads only the stream the id names, never another's of the session", async () => {
    const session = await openLiveSession(url);
    const first = await startCall(session, 1, 4);
    await startCall(session, 2, 4);
    const resumed = await resumeAt(session, first);
    await resumed.ended;
    const messages = sseMessages(resumed.text());
    expect(messages.map((m) => (m.params as { progressToken?: number } | undefined)?.progressToken ?? m.id)).toEqual([
      1, 1, 1, 1,
    ]);
    expect(messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done 4' }] } });
  });

  it("answers 404 to another session's stream, and nothing more once the client has the response", async () => {
    const session = await openLiveSession(url);
    const other = await openLiveSession(url);
    const lastEventId = await startCall(session, 1, 2);
    expect((await resumeAt(other, lastEventId)).status).toBe(404);
    const resumed = await resumeAt(session, lastEventId);
    await resumed.ended;
    const again = await resumeAt(session, resumed.events.at(-1)!.id!);
    await again.ended;
    expect([again.status, again.text()]).toEqual([200, '']);
  });

  it('answers the requests of a stream nobody came back to within the grace with an error, not silence', async () => {
    const session = await openLiveSession(url);
    const lastEventId = await startCall(session, 7, 1000);
    await until(() => (running === 0 ? true : undefined), 'the grace to end', 5000);
    const resumed = await resumeAt(session, lastEventId);
    await resumed.ended;
    expect(sseMessages(resumed.text()).at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32603,
        message: 'The call was cancelled before it answered: nobody read it within the grace, or its server stopped',
      },
    });
    // That answer is the end of the stream: a client resuming after it is told there is nothing more (204).
    expect((await resumeAt(session, resumed.events.at(-1)!.id!)).status).toBe(204);
  });
});

describe('a shutdown', () => {
  it('answers the calls it stops with an error, never with a silent end', async () => {
    const app = buildApp([Counter]);
    const session = await openSession(app);
    const response = await mcpPost(
      app,
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'count', arguments: { n: 1000, delayMs: 20 } } },
      session,
    );
    const text = response.text();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await app.close();
    expect(sseMessages(await text).at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: {
        code: -32603,
        message: 'The call was cancelled before it answered: nobody read it within the grace, or its server stopped',
      },
    });
  });
});
