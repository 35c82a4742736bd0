// McpClient against a hand-written MCP server over a real socket whose answers carry prototype-poisoning keys (spelled
// out or escaped, in a JSON answer or an SSE event): the call fails naming the key, as the REST and socket clients do,
// and a poisoned event is never taken for a cut stream to resume past.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { firstValueFrom } from 'rxjs';
import { McpClient, ResponseProcessingException } from '../../lib/client';
import { within } from '../support/until';
import { fakeMcpServer } from '../support/mcp-fake-server';

/** The result each `tools/call` is answered with (raw JSON text, so a key can be spelled as the test needs). */
let poisonedResult = '';
let asSse = false;
let resumes = 0;

function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  if (request.method === 'GET') {
    resumes++;
    return void response.writeHead(405).end();
  }
  if (request.method === 'DELETE') return void response.writeHead(204).end();
  const message = JSON.parse(body) as { id?: number; method: string };
  if (message.id === undefined) return void response.writeHead(202).end();
  if (message.method === 'initialize') {
    const result = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'fake', version: '1' } };
    response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
    return void response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  }
  const text = `{"jsonrpc":"2.0","id":${message.id},"result":${poisonedResult}}`;
  if (!asSse) return void response.writeHead(200, { 'content-type': 'application/json' }).end(text);
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.end(`id: e1\nretry: 10\ndata: ${text}\n\n`);
}

const endpoint = fakeMcpServer(answer);

describe('McpClient reading poisoned answers', () => {
  it.each([
    ['a JSON answer', false, '{"content":[],"__proto__":{"polluted":true}}', '__proto__'],
    ['a JSON answer, escaped', false, '{"content":[],"\\u005f_proto__":{"polluted":true}}', '__proto__'],
    ['a JSON answer', false, '{"content":[],"constructor":{"prototype":{"polluted":true}}}', 'constructor.prototype'],
    ['an SSE event', true, '{"content":[],"__proto__":{"polluted":true}}', '__proto__'],
    ['an SSE event, escaped', true, '{"content":[],"\\u005f_proto__":{"polluted":true}}', '__proto__'],
  ] as const)('refuses %s (case %#): the key is named, nothing resumed', async (_name, sse, result, key) => {
    poisonedResult = result;
    asSse = sse;
    resumes = 0;
    const client = new McpClient(endpoint.url);
    const error = await within(
      firstValueFrom(client.callTool('any')).then(
        (value) => value,
        (failure: unknown) => failure,
      ),
      'the poisoned call to end',
    );
    expect(error).toBeInstanceOf(ResponseProcessingException);
    expect((error as Error).message).toBe(
      `The answer (200 ${sse ? 'text/event-stream' : 'application/json'}) contains the forbidden key "${key}"`,
    );
    expect(resumes).toBe(0);
    await client.close();
  });
});
