// McpClient against a hand-written MCP server over a real socket that cuts its SSE answer to `initialize` after a
// priming event (an id, no data), as a 2025-11-25 server may: the client resumes it with GET and Last-Event-ID in the
// session the server named, as any call's, and fails at once when the server refuses to resume (no five-second wait
// for an answer that would come again), or when the answer is past the client's limits.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { firstValueFrom } from 'rxjs';
import { McpClient, ResponseTooLargeException } from '../../lib/client';
import { fakeMcpServer } from '../support/mcp-fake-server';

const RESULT = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: {} },
  serverInfo: { name: 'cut', version: '1' },
};

/** What a resume (GET) is answered with: the `initialize` result, or a refusal. */
let resumeStatus = 200;
let initializeAnswer = '';
let initializeId = 0;
const resumes: { session?: string; lastEventId?: string; version?: string }[] = [];

function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  if (request.method === 'GET') {
    const { 'mcp-session-id': session, 'last-event-id': lastEventId } = request.headers;
    resumes.push({ session: String(session), lastEventId: String(lastEventId) });
    if (resumeStatus !== 200) return void response.writeHead(resumeStatus).end();
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    return void response.end(
      `id: p2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: initializeId, result: RESULT })}\n\n`,
    );
  }
  if (request.method === 'DELETE') return void response.writeHead(204).end();
  const message = JSON.parse(body) as { id?: number; method: string };
  if (message.id === undefined) return void response.writeHead(202).end();
  if (message.method === 'initialize') {
    initializeId = message.id;
    response.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
    // The priming event, then the connection ends before the answer.
    return void response.end(initializeAnswer);
  }
  const text = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { tools: [] } });
  response.writeHead(200, { 'content-type': 'application/json' }).end(text);
}

const endpoint = fakeMcpServer(answer);

beforeEach(() => {
  resumes.length = 0;
  resumeStatus = 200;
  initializeAnswer = 'id: p1\nretry: 10\ndata:\n\n';
});

describe('McpClient opening a session whose initialize answer is cut', () => {
  it('resumes it with GET and Last-Event-ID in the session the server named, then calls', async () => {
    const client = new McpClient(endpoint.url);
    await expect(firstValueFrom(client.listTools())).resolves.toEqual([]);
    expect(resumes).toEqual([{ session: 's1', lastEventId: 'p1' }]);
    await client.close();
  });

  it('fails with the refusal when the server cannot resume it (405) at once, not after five more a second apart', async () => {
    // No retry: the default second passes before the one resume.
    initializeAnswer = 'id: p1\ndata:\n\n';
    resumeStatus = 405;
    const started = Date.now();
    const failed = await firstValueFrom(new McpClient(endpoint.url).listTools()).catch((error: unknown) => error);
    expect(failed).toMatchObject({ status: 405 });
    expect(resumes).toEqual([{ session: 's1', lastEventId: 'p1' }]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("holds the initialize answer to the client's limits, and does not ask again for what it refused", async () => {
    // Any id: the answer is refused before it is read, after the priming event (a resume would come back to it).
    const large = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ...RESULT, pad: 'x'.repeat(2000) } });
    initializeAnswer = `id: p1\nretry: 10\ndata:\n\nid: p2\ndata: ${large}\n\n`;
    const client = new McpClient(endpoint.url, { limits: { maxItemSize: 1000 } });
    const failed = await firstValueFrom(client.listTools()).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ResponseTooLargeException);
    expect(resumes).toEqual([]);
  });
});
