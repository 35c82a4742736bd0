// A resource URI template matches a URI in one pass, over a real socket: a template with variables apart by a literal
// in one segment (`{name}.{ext}`, `{owner}-{repo}-{tag}`) was a backtracking regular expression, so a crafted URI of a
// few thousand characters made `resources/read` hold the event loop for seconds (three variables, 6,400 characters:
// 24 s, every other request of the process waiting). The variables still take what they took: each the shortest that
// lets the rest match, the last one the rest of its segment.
import { McpResource, McpServer, RestApplication, type RunningServer } from '../../lib';
import { initializeRequest, mcpPostOver } from '../support/mcp';

@McpServer('/mcp')
class Files {
  @McpResource({ uriTemplate: 'files://{name}.{ext}', name: 'file' })
  file(vars: Record<string, string>): Record<string, string> {
    return vars;
  }

  @McpResource({ uriTemplate: 'repos://{owner}-{repo}-{tag}/readme', name: 'readme' })
  readme(vars: Record<string, string>): Record<string, string> {
    return vars;
  }
}

let server: RunningServer;
let session: Record<string, string>;
beforeAll(async () => {
  const app = RestApplication.build({ classes: [Files] });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  const opened = await post(initializeRequest());
  session = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
  await opened.text();
});
afterAll(() => server.close());

const post = (body: unknown, headers: Record<string, string> = {}) => mcpPostOver(server.url, body, headers);

async function read(uri: string): Promise<{ vars?: unknown; error?: number }> {
  const answer = await post({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } }, session);
  const body = (await answer.json()) as { result?: { contents: { text: string }[] }; error?: { code: number } };
  return body.error ? { error: body.error.code } : { vars: JSON.parse(body.result!.contents[0]!.text) };
}

describe('a resource URI template', () => {
  it('binds each variable as before: the shortest that lets the rest match, the last the rest of its segment', async () => {
    expect(await read('files://report.2026.pdf')).toEqual({ vars: { name: 'report', ext: '2026.pdf' } });
    expect(await read('files://a%20b.txt')).toEqual({ vars: { name: 'a b', ext: 'txt' } });
    expect(await read('repos://ada-engine-v1-2/readme')).toEqual({
      vars: { owner: 'ada', repo: 'engine', tag: 'v1-2' },
    });
    for (const uri of [
      'files://report',
      'files://.pdf',
      'files://a/b.pdf',
      'repos://a-b-c/other',
      'repos://a--/readme',
    ])
      expect([uri, await read(uri)]).toEqual([uri, { error: -32002 }]);
  });

  it('refuses a crafted URI in one pass, and the server answers others meanwhile', async () => {
    const crafted = [`files://${'a.'.repeat(100_000)}/`, `repos://${'a-'.repeat(20_000)}/x/readme`];
    const reads = crafted.map((uri) => read(uri));
    const ping = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, session);
    expect(await ping.json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(await Promise.all(reads)).toEqual([{ error: -32002 }, { error: -32002 }]);
  });
});
