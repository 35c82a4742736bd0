import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { concat, endWith, interval, map, Observable, of, take } from 'rxjs';
import { z } from 'zod';
import { logNotice, McpCall, McpServer, progressNotice, Tool, type RunningServer } from '../../lib';
import { buildApp } from '../support/app';
import { connectClient, MCP_HEADERS, openLiveSession, sendLive, sseMessages } from '../support/mcp';
import { until } from '../support/until';

/** What the never-ending tool saw: how often it started, was torn down, and had its signal aborted. */
const seen = { started: 0, stopped: 0, aborted: 0 };

@McpServer('/mcp')
class Work {
  @Tool({ description: 'Counts slowly', input: z.object({ n: z.number().int(), delayMs: z.number().int() }) })
  countSlow(args: { n: number; delayMs: number }): Observable<unknown> {
    return interval(args.delayMs).pipe(
      take(args.n),
      map((k) => progressNotice(k + 1, args.n)),
      endWith(`done ${args.n}`),
    );
  }

  @Tool({ description: 'Logs at three levels' })
  chatty(): Observable<unknown> {
    return concat(
      of(logNotice('debug', 'quiet'), logNotice('info', { step: 1 }, 'work'), logNotice('error', 'loud')),
      of('ok'),
    );
  }

  @Tool({ description: 'Reports through its handle' })
  async handle(call: McpCall): Promise<string> {
    call.progress(1, 2, 'half way');
    await new Promise((resolve) => setTimeout(resolve, 5));
    call.log('warning', 'careful');
    call.progress(2, 2);
    return 'handled';
  }

  @Tool({ description: 'Never ends' })
  forever(call: McpCall): Observable<unknown> {
    return new Observable(() => {
      seen.started++;
      call.signal.addEventListener('abort', () => seen.aborted++);
      return () => seen.stopped++;
    });
  }
}

let server: RunningServer;
let client: Client;
let url: string;

beforeAll(async () => {
  server = await buildApp([Work], { 'framework.mcp.call-grace': '400ms' }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
  url = `${server.url}/mcp`;
  ({ client } = await connectClient(url));
});

afterAll(async () => {
  await client.close();
  await server.close();
});

beforeEach(() => Object.assign(seen, { started: 0, stopped: 0, aborted: 0 }));

describe('progress', () => {
  it("sends each progress item of a tool's Observable as it comes, in order, then the result", async () => {
    const progress: { progress: number; total?: number }[] = [];
    const result = await client.callTool({ name: 'countSlow', arguments: { n: 5, delayMs: 10 } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(progress).toEqual([1, 2, 3, 4, 5].map((k) => ({ progress: k, total: 5 })));
    expect(result.content).toEqual([{ type: 'text', text: 'done 5' }]);
  });

  it('sends no progress to a client that gave no progressToken', async () => {
    const session = await openLiveSession(url);
    const answer = await sendLive(
      url,
      'POST',
      { ...MCP_HEADERS, 'mcp-session-id': session },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'countSlow', arguments: { n: 3, delayMs: 1 } },
      },
    );
    await answer.ended;
    expect(sseMessages(answer.text())).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done 3' }] } },
    ]);
  });

  it("sends what a tool's McpCall reports, with its messages", async () => {
    const progress: unknown[] = [];
    const result = await client.callTool({ name: 'handle' }, undefined, { onprogress: (p) => progress.push(p) });
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'half way' },
      { progress: 2, total: 2 },
    ]);
    expect(result.content).toEqual([{ type: 'text', text: 'handled' }]);
  });
});

describe('concurrent calls', () => {
  it('runs calls of one session at once, each with its own progress and result', async () => {
    const progress = new Map<number, number[]>();
    const calls = [3, 5, 2, 4].map((n) =>
      client.callTool({ name: 'countSlow', arguments: { n, delayMs: 15 } }, undefined, {
        onprogress: (p) => progress.set(n, [...(progress.get(n) ?? []), p.progress]),
      }),
    );
    const started = Date.now();
    const results = await Promise.all(calls);
    // Side by side: about as long as the longest, not the sum.
    expect(Date.now() - started).toBeLessThan(14 * 15 + 400);
    expect(results.map((result) => result.content)).toEqual(
      [3, 5, 2, 4].map((n) => [{ type: 'text', text: `done ${n}` }]),
    );
    for (const n of [3, 5, 2, 4]) expect(progress.get(n)).toEqual(Array.from({ length: n }, (_, k) => k + 1));
  });
});

describe('log messages', () => {
  it('sends those at or above the level the client set, before the result', async () => {
    const logs: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'chatty' });
    expect(logs).toEqual([
      { level: 'info', logger: 'work', data: { step: 1 } },
      { level: 'error', data: 'loud' },
    ]);
    logs.length = 0;
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'chatty' });
    expect(logs.map((log) => log.level)).toEqual(['debug', 'info', 'error']);
  });

  it('refuses a level MCP does not have with -32602', async () => {
    await expect(
      client.request({ method: 'logging/setLevel', params: { level: 'loud' } }, z.object({})),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe('cancellation', () => {
  it('stops the call when the client cancels it (notifications/cancelled): the source is unsubscribed, its signal aborted', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'forever' }, undefined, { signal: controller.signal });
    await until(() => (seen.started === 1 ? true : undefined), 'the call to start');
    controller.abort('no longer needed');
    await expect(call).rejects.toThrow();
    await until(() => (seen.stopped === 1 ? true : undefined), 'the source to be unsubscribed');
    expect(seen.aborted).toBe(1);
  });

  it('stops the call at once when its client leaves and cannot resume (no priming event before 2025-11-25)', async () => {
    const session = await openLiveSession(url, '2025-06-18');
    const answer = await sendLive(
      url,
      'POST',
      { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'forever' } },
    );
    await until(() => (seen.started === 1 ? true : undefined), 'the call to start');
    answer.cut();
    await until(() => (seen.stopped === 1 ? true : undefined), 'the source to be unsubscribed', 300);
  });

  it('lets the call go on when a client that can resume leaves, until the grace is over', async () => {
    const session = await openLiveSession(url);
    const answer = await sendLive(
      url,
      'POST',
      { ...MCP_HEADERS, 'mcp-session-id': session },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'forever' },
      },
    );
    await answer.until((events) => events.length > 0);
    expect(answer.events[0]!.data).toBe('');
    const left = Date.now();
    answer.cut();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.stopped).toBe(0);
    await until(() => (seen.stopped === 1 ? true : undefined), 'the grace to end', 3000);
    expect(Date.now() - left).toBeGreaterThanOrEqual(400);
    expect(seen.aborted).toBe(1);
  });
});
