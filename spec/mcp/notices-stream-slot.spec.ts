// A session's one GET stream is given back however its opening fails, over a real socket: a GET whose Last-Event-ID
// named the notices stream with a malformed id took the session's stream (answered 400) and never gave it back, so
// every later GET of the session answered 409, and the session, counted busy, never timed out nor made room past
// framework.mcp.max-sessions: one request made a stranger's session immortal.
import { McpServer, RestApplication, Tool, type RunningServer } from '../../lib';
import { initializeRequest, MCP_HEADERS } from '../support/mcp';
import { openSse } from '../support/sse-client';

@McpServer('/mcp')
class Quiet {
  @Tool({ description: 'Answers' })
  answer(): string {
    return 'yes';
  }
}

// The session timeout is the behaviour under test, so it is a real wait. It must outlast the gap between any two of
// the session's requests on a loaded machine (at 300 ms, a loaded in-band run saw the session gone before its first GET),
// and the final wait outlasts it twice over (an idle session is refused on its next request once past the timeout).
const TIMEOUT_MS = 2000;

let server: RunningServer;
beforeAll(async () => {
  const app = RestApplication.build({
    classes: [Quiet],
    overrides: { 'framework.rest.sse.keep-alive': '0', 'framework.mcp.session-timeout': `${TIMEOUT_MS}ms` },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

async function open(): Promise<Record<string, string>> {
  const opened = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify(initializeRequest()),
  });
  await opened.text();
  return { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
}

async function get(headers: Record<string, string>): Promise<{ status: number; code: unknown }> {
  const answer = await fetch(`${server.url}/mcp`, { headers: { accept: 'text/event-stream', ...headers } });
  const body = (await answer.json()) as { code?: string; error?: { code: number } };
  return { status: answer.status, code: body.code ?? body.error?.code };
}

describe("a session's GET stream", () => {
  it('is given back when a malformed Last-Event-ID refuses it: the next GET opens, and the session still times out', async () => {
    const session = await open();
    for (const lastEventId of ['notices_zzz', 'notices_1-0-0', `notices_${'9'.repeat(40)}`])
      expect(await get({ ...session, 'last-event-id': lastEventId })).toEqual({
        status: 400,
        code: 'RXREST_MALFORMED_LAST_EVENT_ID',
      });
    const stream = await openSse(`${server.url}/mcp`, session);
    expect(stream.status).toBe(200);
    // Held while it is open, as before.
    expect(await get(session)).toEqual({ status: 409, code: -32000 });
    stream.cut();
    // Left alone, it ends after the timeout like any idle session.
    const idle = await open();
    expect((await get({ ...idle, 'last-event-id': 'notices_zzz' })).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2));
    const ping = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...idle },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    await ping.text();
    expect(ping.status).toBe(404);
  });
});
