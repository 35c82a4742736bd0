// An MCP POST answered as a stream (a tool call's progress and result) holds one of the application's open streams
// for as long as it lasts, as a resource's stream does: past framework.http.limits.max-streams a call is refused 503.
import { Subject } from 'rxjs';
import { McpServer, Tool } from '../../lib';
import { buildApp } from '../support/app';
import { initializeRequest, mcpPost } from '../support/mcp';

const release = new Subject<string>();

@McpServer('/mcp')
class Waiting {
  @Tool({ description: 'Answers once released' })
  wait(): Subject<string> {
    return release;
  }
}

const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait', arguments: {} } });

describe('an MCP POST answered as a stream', () => {
  it('counts against framework.http.limits.max-streams while it lasts', async () => {
    const app = buildApp([Waiting], {
      'framework.http.limits.max-streams': 1,
      'framework.http.limits.max-streams-per-client': 0,
    });
    const opened = await mcpPost(app, initializeRequest());
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    const first = await mcpPost(app, call(1), session);
    try {
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const refused = await mcpPost(app, call(2), session);
      const body = await (refused.status === 503 ? refused.text() : (void refused.body?.cancel(), ''));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(body) as { code: string }).toMatchObject({ code: 'RXREST_STREAM_CAPACITY' });
    } finally {
      release.next('done');
      release.complete();
    }
    expect(await first.text()).toContain('done');
    const again = await mcpPost(app, { jsonrpc: '2.0', id: 3, method: 'ping' }, session);
    expect(again.status).toBe(200);
    await again.text();
    await app.close();
  });
});
