// A call's messages past framework.broadcast.max-event-size (what one event of its resumable stream holds), over a
// real socket. A result that large failed the whole stream with "The call was lost: the server running it stopped"
// and an ERROR with a stack; a client's 100 KB progressToken, repeated in each progress notification, did the same to
// a call that would have answered; a 100 KB request id got an empty 200 stream, its tool run unseen.
import { endWith, interval, map, take } from 'rxjs';
import { z } from 'zod';
import { McpServer, progressNotice, RestApplication, Tool, type RunningServer } from '../../lib';
import { initializeRequest, mcpPostOver } from '../support/mcp';

let runs = 0;

@McpServer('/mcp')
class Sized {
  @Tool({ description: 'Counts to 3, then answers text of the size asked', input: z.object({ size: z.number() }) })
  text(args: { size: number }) {
    runs++;
    return interval(5).pipe(
      take(3),
      map((k) => progressNotice(k + 1, 3)),
      endWith('z'.repeat(args.size)),
    );
  }
}

let server: RunningServer;
let headers: Record<string, string>;
beforeAll(async () => {
  server = await RestApplication.build({ classes: [Sized] }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
  const opened = await mcpPostOver(server.url, initializeRequest());
  headers = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
  await opened.text();
});
afterAll(() => server.close());

interface Message {
  readonly method?: string;
  readonly result?: { readonly content: readonly { readonly text: string }[] };
}

/** The JSON-RPC messages of an SSE answer, in order. */
async function call(id: string | number, size: number, progressToken: string): Promise<Message[]> {
  const params = { name: 'text', arguments: { size }, _meta: { progressToken } };
  const answer = await mcpPostOver(server.url, { jsonrpc: '2.0', id, method: 'tools/call', params }, headers);
  expect(answer.status).toBe(200);
  return (await answer.text())
    .split('\n')
    .filter((line) => line.startsWith('data:{'))
    .map((line) => JSON.parse(line.slice(5)) as Message);
}

describe('an MCP call stream', () => {
  it('answers a result past framework.broadcast.max-event-size with an error naming it, after its progress', async () => {
    const messages = await call(1, 100_000, 'p');
    expect(messages.map((message) => message.method ?? 'response')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
    expect(messages[3]).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: expect.stringContaining('framework.broadcast.max-event-size') },
    });
    expect((await call(2, 1000, 'p')).at(-1)!.result!.content[0]!.text).toHaveLength(1000);
  });

  it('drops the progress notifications a 100 KB progressToken makes too large, and answers the call', async () => {
    const messages = await call(3, 10, 'x'.repeat(100_000));
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'z'.repeat(10) }] } },
    ]);
  });

  it('refuses request ids past a quarter of framework.broadcast.max-event-size with -32600, before any runs', async () => {
    const before = runs;
    const params = { name: 'text', arguments: { size: 1 } };
    const answer = await mcpPostOver(
      server.url,
      { jsonrpc: '2.0', id: 'y'.repeat(100_000), method: 'tools/call', params },
      headers,
    );
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect(runs).toBe(before);
    const batch = Array.from({ length: 20 }, (_, n) => ({
      jsonrpc: '2.0',
      id: `${n}`.padEnd(1000, '-'),
      method: 'ping',
    }));
    expect((await mcpPostOver(server.url, batch, headers)).status).toBe(400);
  });
});
