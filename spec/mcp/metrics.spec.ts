import { McpServer, Tool, ToolError } from '../../lib';
import { buildApp, call } from '../support/app';
import { mcpPost, openSession } from '../support/mcp';

@McpServer('/mcp')
class Measured {
  @Tool({ description: 'Answers' })
  answer(): string {
    return '42';
  }

  @Tool({ description: 'Refuses' })
  refuse(): string {
    throw new ToolError('no');
  }
}

const request = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name } });

it('counts MCP requests in the metrics by method, tool and outcome', async () => {
  const app = buildApp([Measured], { 'framework.metrics.enabled': true });
  const session = await openSession(app);
  for (const [id, name] of [
    [1, 'answer'],
    [2, 'answer'],
    [3, 'refuse'],
  ] as const)
    await (await mcpPost(app, request(id, name), session)).text();
  await (await mcpPost(app, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, session)).text();
  const scraped = await (await call(app, '/q/metrics')).text();
  expect(scraped).toContain(
    'rxrest_mcp_requests_seconds_count{method="tools/call",target="answer",outcome="success"} 2',
  );
  expect(scraped).toContain(
    'rxrest_mcp_requests_seconds_count{method="tools/call",target="refuse",outcome="tool_error"} 1',
  );
  expect(scraped).toContain('rxrest_mcp_requests_seconds_count{method="tools/list",target="",outcome="success"} 1');
});

it('measures nothing when metrics are off', async () => {
  const app = buildApp([Measured]);
  const session = await openSession(app);
  expect((await mcpPost(app, request(1, 'answer'), session)).status).toBe(200);
  expect((await call(app, '/q/metrics')).status).toBe(404);
});
