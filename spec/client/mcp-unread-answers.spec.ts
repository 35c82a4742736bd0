// McpClient against a hand-written MCP server over a real socket that answers the messages whose answers the client
// does not read (notifications, its replies to the server's requests, the session's end, a request answered 202) with
// bodies that never end: the client lets go of each connection at once instead of holding it open until its answer
// is garbage collected.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../lib/client';
import { until } from '../support/until';
import { fakeMcpServer } from '../support/mcp-fake-server';

/** The endless answers still open, by the message they answer. */
const open = new Map<string, number>();

function endless(response: ServerResponse, what: string, status = 200): void {
  open.set(what, (open.get(what) ?? 0) + 1);
  response.writeHead(status, { 'content-type': 'text/plain' });
  const timer = setInterval(() => response.write('x'.repeat(1024)), 20);
  response.on('close', () => {
    clearInterval(timer);
    open.set(what, open.get(what)! - 1);
  });
}

function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  if (request.method === 'DELETE') return endless(response, 'DELETE');
  const message = JSON.parse(body) as { id?: number; method?: string; params?: { name?: string } };
  if (message.method === undefined || message.id === undefined) return endless(response, message.method ?? 'reply');
  // A request answered 202 as a notification is, with a body all the same.
  if (message.method === 'ping') return endless(response, 'ping', 202);
  if (message.method === 'tools/call') {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    // `hang` is never answered (until the client cancels it); `ask` asks the client for a sampling first.
    if (message.params?.name === 'hang') return void response.write(': waiting\n\n');
    const ask = { jsonrpc: '2.0', id: 'q1', method: 'sampling/createMessage', params: {} };
    const done = { jsonrpc: '2.0', id: message.id, result: { content: [] } };
    return void response.end(`data: ${JSON.stringify(ask)}\n\ndata: ${JSON.stringify(done)}\n\n`);
  }
  const result =
    message.method === 'initialize'
      ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'endless', version: '1' } }
      : { tools: [] };
  response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
  response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
}

const endpoint = fakeMcpServer(answer);

describe('McpClient and the answers it does not read', () => {
  it('lets go at once of the answers to its notifications, its replies, the end of the session and a 202', async () => {
    const client = new McpClient(endpoint.url, {
      sampling: async () => ({ role: 'assistant', content: { type: 'text', text: 'hi' } }),
    });
    await expect(firstValueFrom(client.listTools())).resolves.toEqual([]);
    await expect(firstValueFrom(client.callTool('ask'))).resolves.toEqual({ content: [] });
    const hanging = client.callTool('hang').subscribe();
    await until(() => (open.has('reply') ? true : undefined), 'the reply to the sampling request');
    hanging.unsubscribe();
    await until(() => (open.has('notifications/cancelled') ? true : undefined), 'the cancellation');
    await expect(firstValueFrom(client.request('ping'))).rejects.toThrow('No answer to ping');
    await client.close();
    const answered = ['DELETE', 'notifications/cancelled', 'notifications/initialized', 'ping', 'reply'];
    expect([...open.keys()].sort()).toEqual(answered);
    await until(
      () => ([...open.values()].every((count) => count === 0) ? true : undefined),
      'every answer let go',
      2000,
    );
  });
});
