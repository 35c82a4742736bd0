// MCP requests traced with the Node SDK and an in-memory exporter: a span per request in OpenTelemetry's MCP
// conventions, a child of the HTTP request's span, active while the tool runs, ended with the response.
import { trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { z } from 'zod';
import { McpServer, Tool, ToolError } from '../../lib';
import { buildApp, withServer } from '../support/app';
import { connectClient, initializeRequest, mcpPostOver } from '../support/mcp';
import { until } from '../support/until';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
afterAll(() => provider.shutdown());

@McpServer('/mcp')
class Traced {
  @Tool({ description: 'Looks something up', input: z.object({ key: z.string() }) })
  async lookUp(args: { key: string }): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    trace.getTracer('spec').startSpan('database query').end();
    return `value of ${args.key}`;
  }

  @Tool({ description: 'Refuses' })
  refuse(): string {
    throw new ToolError('no');
  }
}

const named = (name: string) => (span: ReadableSpan) => span.name === name;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

it('traces each MCP request as a span under its HTTP request, with the tool running inside it', async () => {
  await withServer(buildApp([Traced]), async (server) => {
    const { client } = await connectClient(`${server.url}/mcp`);
    await client.listTools();
    await client.callTool({ name: 'lookUp', arguments: { key: 'k' } });
    await client.callTool({ name: 'refuse' });
    await client.close();
  });
  const spans = await until(() => {
    const finished = exporter.getFinishedSpans();
    return finished.some(named('tools/call refuse')) ? finished : undefined;
  }, 'the spans');
  const call = spans.find(named('tools/call lookUp'))!;
  expect(call.kind).toBe(SpanKind.SERVER);
  expect(call.attributes).toMatchObject({
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'lookUp',
    'gen_ai.operation.name': 'execute_tool',
    'mcp.protocol.version': '2025-11-25',
    'jsonrpc.request.id': expect.any(String),
    'mcp.session.id': expect.any(String),
  });
  const http = spans.find((span) => span.spanContext().spanId === parentOf(call))!;
  expect(http.name).toBe('POST /mcp');
  expect(parentOf(spans.find(named('database query'))!)).toBe(call.spanContext().spanId);
  expect(spans.find(named('tools/list'))!.attributes['mcp.method.name']).toBe('tools/list');
  const refused = spans.find(named('tools/call refuse'))!;
  expect(refused.status.code).toBe(SpanStatusCode.ERROR);
  expect(refused.attributes['error.type']).toBe('tool_error');
});

it('names a span by what the server serves: made-up methods, tool names and URIs name no span of their own', async () => {
  exporter.reset();
  await withServer(buildApp([Traced]), async (server) => {
    const opened = await mcpPostOver(server.url, initializeRequest());
    const headers = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await opened.text();
    const answered = await mcpPostOver(
      server.url,
      [
        { jsonrpc: '2.0', id: 1, method: 'made/up-1' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'no-tool-1', arguments: {} } },
        { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'nowhere://1' } },
      ],
      headers,
    );
    expect(answered.status).toBe(200);
    await answered.text();
  });
  const byId = (id: string) =>
    exporter.getFinishedSpans().find((span) => span.attributes['jsonrpc.request.id'] === id)!;
  await until(() => (['1', '2', '3'].every(byId) ? true : undefined), 'the spans');
  expect([byId('1').name, byId('2').name, byId('3').name]).toEqual(['_OTHER', 'tools/call', 'resources/read']);
  // What the client sent stays on the attributes.
  expect(byId('1').attributes['mcp.method.name']).toBe('made/up-1');
  expect(byId('2').attributes['gen_ai.tool.name']).toBe('no-tool-1');
  expect(byId('3').attributes['mcp.resource.uri']).toBe('nowhere://1');
});
