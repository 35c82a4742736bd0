// A JSON-RPC batch is bounded, over a real socket: with the default body limit (10 MB), one POST of 200,000
// `tools/list` requests made the process build an answer of 530 MB in memory (its RSS past 2 GB for one anonymous
// request), and 8,000 tool calls ran at once. A batch of more than framework.mcp.max-batch-size messages is refused
// with 400 and -32600 before any runs; one within it is answered in order, as before.
import { McpServer, RestApplication, Tool, type RunningServer } from '../../lib';
import { initializeRequest, mcpPostOver } from '../support/mcp';

let calls = 0;

@McpServer('/mcp')
class Batched {
  @Tool({ description: 'Counts its calls' })
  count(): string {
    return `call ${++calls}`;
  }
}

const MAX_BATCH = 10;

let server: RunningServer;
let session: string;
beforeAll(async () => {
  const app = RestApplication.build({ classes: [Batched], overrides: { 'framework.mcp.max-batch-size': MAX_BATCH } });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  const opened = await post(initializeRequest());
  session = opened.headers.get('mcp-session-id')!;
  await opened.text();
});
afterAll(() => server.close());

const post = (body: unknown, headers: Record<string, string> = {}) => mcpPostOver(server.url, body, headers);

const batch = (size: number, method: string, params?: object) =>
  Array.from({ length: size }, (_, id) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }));

describe('a JSON-RPC batch', () => {
  it('of more than max-batch-size messages is refused with 400 and -32600, none of them run', async () => {
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    for (const messages of [
      batch(MAX_BATCH + 1, 'tools/list'),
      batch(1000, 'tools/call', { name: 'count', arguments: {} }),
    ]) {
      const refused = await post(messages, headers);
      expect([refused.status, await refused.json()]).toEqual([
        400,
        {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32600,
            message: `Invalid Request: a batch of ${messages.length} messages, more than framework.mcp.max-batch-size (${MAX_BATCH})`,
          },
        },
      ]);
    }
    expect(calls).toBe(0);
  });

  it('within max-batch-size is answered in order', async () => {
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const answered = await post(batch(MAX_BATCH, 'ping'), headers);
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { id: number }[]).map((response) => response.id)).toEqual(
      Array.from({ length: MAX_BATCH }, (_, id) => id),
    );
  });
});
