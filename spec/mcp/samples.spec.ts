import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { connectClient } from '../support/mcp';

let server: RunningServer;
let client: Client;

beforeAll(async () => {
  server = await buildSamples().listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  ({ client } = await connectClient(`${server.url}/mcp`));
});

afterAll(async () => {
  await client.close();
  await server.close();
});

describe('the samples /mcp', () => {
  it('lists count_slow beside the conformance fixtures', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'count_slow')!.inputSchema).toMatchObject({
      type: 'object',
      properties: { n: { type: 'integer', minimum: 1 }, delayMs: { type: 'integer', minimum: 0 } },
      required: ['n', 'delayMs'],
    });
    expect(tools.filter((tool) => tool.name.startsWith('test_'))).toHaveLength(13);
  });

  it('counts slowly: progress 1..n of n, one every delayMs, then "done n"', async () => {
    const progress: { progress: number; total?: number }[] = [];
    const started = Date.now();
    const result = await client.callTool({ name: 'count_slow', arguments: { n: 4, delayMs: 50 } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(progress).toEqual([1, 2, 3, 4].map((k) => ({ progress: k, total: 4 })));
    expect(result).toEqual({ content: [{ type: 'text', text: 'done 4' }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});
