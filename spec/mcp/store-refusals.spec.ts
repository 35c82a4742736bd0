// What an MCP client is told when the broadcast store refuses its request names nothing of how the server keeps
// sessions, over a real socket: the store's problems name the topic they refused, which an application's own topics
// want (a chat room), but an MCP server's topics are the framework's (`mcp-session/<id>`, `mcp/<session>/<stream>`,
// `mcp:/mcp`), and their names reached the client in 413, 503, 404 and 400 problems. The status, the code and
// Retry-After are kept.
import { Observable } from 'rxjs';
import { McpServer, RestApplication, Tool, type RunningServer } from '../../lib';
import { initializeRequest, MCP_HEADERS } from '../support/mcp';

@McpServer('/mcp')
class Kept {
  @Tool({ description: 'Runs until its client leaves' })
  forever(): Observable<string> {
    return new Observable<string>(() => undefined);
  }
}

let server: RunningServer;
beforeAll(async () => {
  const app = RestApplication.build({
    classes: [Kept],
    overrides: { 'framework.broadcast.max-topics': 2, 'framework.broadcast.max-event-size': '4K' },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(body) });

/** The status, code, Retry-After and whether the detail names a store topic (or the store at all). */
async function told(answer: Response) {
  const problem = (await answer.json()) as { code: string; detail: string };
  return {
    status: answer.status,
    code: problem.code,
    retryAfter: answer.headers.get('retry-after'),
    namesStore: /mcp-session\/|mcp\/[0-9a-f-]{36}|mcp:\/|broadcast\(/.test(problem.detail),
  };
}

describe('the store refusing an MCP request', () => {
  it('is told with its status and code, never with the names the server keeps sessions under', async () => {
    const large = initializeRequest() as { params: { clientInfo: Record<string, string> } };
    large.params.clientInfo = { name: 'x'.repeat(8192), version: '1' };
    expect(await told(await post(large))).toEqual({
      status: 413,
      code: 'RXREST_BROADCAST_EVENT_TOO_LARGE',
      retryAfter: null,
      namesStore: false,
    });
    const opened = await post(initializeRequest());
    const session = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await opened.text();
    const get = (lastEventId: string) =>
      fetch(`${server.url}/mcp`, {
        headers: { accept: 'text/event-stream', 'last-event-id': lastEventId, ...session },
      });
    expect(await told(await get('00000000-0000-0000-0000-000000000000_1-0'))).toEqual({
      status: 404,
      code: 'RXREST_STREAM_NOT_FOUND',
      retryAfter: null,
      namesStore: false,
    });
    expect(await told(await get('notices_zzz'))).toEqual({
      status: 400,
      code: 'RXREST_MALFORMED_LAST_EVENT_ID',
      retryAfter: null,
      namesStore: false,
    });
    // Two topics held: the session's, and a call running on its stream; a third session finds no room.
    const call = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'forever' } }, session);
    expect(call.status).toBe(200);
    expect(await told(await post(initializeRequest()))).toEqual({
      status: 503,
      code: 'RXREST_BROADCAST_TOO_MANY_TOPICS',
      retryAfter: '1',
      namesStore: false,
    });
    await call.body?.cancel();
  });
});
