// The labels of rxrest_mcp_requests_seconds come from what the server serves, never from what a client writes, over a
// real socket: `method` and `target` were the request's own strings, so every made-up method, tool name or URI was a
// series of its own, kept for the life of the process and repeated in every scrape (the samples' heap, capped at
// 200 MB, ran out after 300 subscriptions of 900 KB URIs). A method the server does not answer counts as `_OTHER`,
// a name or URI it does not serve as no target, and a URI of a template as the template.
import { McpResource, McpServer, RestApplication, Tool, type RunningServer } from '../../lib';
import { initializeRequest, mcpPostOver } from '../support/mcp';

@McpServer('/mcp')
class Labelled {
  @Tool({ description: 'Answers' })
  answer(): string {
    return 'yes';
  }

  @McpResource({ uriTemplate: 'items://{id}', name: 'item' })
  item(vars: { id: string }): string {
    return `item ${vars.id}`;
  }
}

let server: RunningServer;
let headers: Record<string, string>;
beforeAll(async () => {
  const app = RestApplication.build({ classes: [Labelled], overrides: { 'framework.metrics.enabled': true } });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  const opened = await post(initializeRequest());
  headers = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
  await opened.text();
});
afterAll(() => server.close());

const post = (body: unknown, extra: Record<string, string> = {}) => mcpPostOver(server.url, body, extra);

describe('rxrest_mcp_requests_seconds', () => {
  it('is labelled by what the server serves: made-up methods, names and URIs add no series', async () => {
    const requests = (n: number) => [
      { jsonrpc: '2.0', id: 1, method: `made/up-${n}` },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: `no-tool-${n}`, arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: `items://${n}` } },
      { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: `nowhere://${n}` } },
      { jsonrpc: '2.0', id: 5, method: 'resources/subscribe', params: { uri: `nowhere://${n}` } },
    ];
    for (let n = 0; n < 40; n++) {
      const answered = await post(requests(n), headers);
      expect(answered.status).toBe(200);
      await answered.text();
    }
    const called = await post({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'answer' } }, headers);
    await called.text();
    const scraped = await (await fetch(`${server.url}/q/metrics`)).text();
    const series = scraped
      .split('\n')
      .filter((line) => line.startsWith('rxrest_mcp_requests_seconds_count{'))
      .map((line) => line.slice(line.indexOf('{'), line.lastIndexOf(' ')))
      .sort();
    expect(series).toEqual([
      '{method="_OTHER",target="",outcome="error"}',
      '{method="resources/read",target="",outcome="error"}',
      '{method="resources/read",target="items://{id}",outcome="success"}',
      '{method="resources/subscribe",target="",outcome="success"}',
      '{method="tools/call",target="",outcome="error"}',
      '{method="tools/call",target="answer",outcome="success"}',
    ]);
  });
});
