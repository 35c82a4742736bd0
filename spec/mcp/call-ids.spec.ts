// A tool call is known to its session by its request id, over a real socket: JSON-RPC ids 1 and "1" are two ids, and a
// request whose id a running call of the session already holds is answered with -32600, never run. The calls were
// kept by the id as text: a second call with the same id (or 1 beside "1") took the first one's place, so the first
// ran on out of the session's sight: a cancellation reached one of them, DELETE of the session left the other running,
// and a stranger could run calls the session no longer counted.
import { Observable } from 'rxjs';
import { McpServer, RestApplication, Tool, type RunningServer } from '../../lib';
import { MCP_HEADERS, openLiveSession, sendLive, type LiveAnswer } from '../support/mcp';
import { until } from '../support/until';

let running = 0;

@McpServer('/mcp')
class Forever {
  @Tool({ description: 'Runs until cancelled' })
  forever(): Observable<string> {
    return new Observable<string>(() => {
      running++;
      return () => running--;
    });
  }
}

let server: RunningServer;
beforeAll(async () => {
  server = await RestApplication.build({
    classes: [Forever],
    overrides: { 'framework.rest.sse.keep-alive': '0', 'framework.mcp.call-grace': '1m' },
  }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

const callOf = (id: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'forever', arguments: {} },
});
/** The JSON-RPC error `answer` gives (as JSON, or on its stream beside a running call); rejects after 3 s without. */
async function errorIn(answer: LiveAnswer): Promise<unknown> {
  const hasError = (events: LiveAnswer['events']) => events.some((event) => event.data.includes('"error"'));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    answer.until(hasError),
    new Promise<void>((_, reject) => (timer = setTimeout(() => reject(new Error('no error within 3 s')), 3000))),
  ]).finally(() => clearTimeout(timer));
  if (String(answer.headers['content-type']).startsWith('application/json')) return JSON.parse(answer.text());
  return JSON.parse(answer.events.find((event) => event.data.includes('"error"'))!.data);
}

const runningIs = (count: number) =>
  until(() => (running === count ? true : undefined), `${count} calls running`, 5000);

describe('tool calls by request id', () => {
  it('tells 1 from "1", refuses an id a running call holds, and ends every call with its session', async () => {
    const session = await openLiveSession(`${server.url}/mcp`);
    const headers = { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const post = (body: unknown): Promise<LiveAnswer> => sendLive(`${server.url}/mcp`, 'POST', headers, body);
    const answers = [await post(callOf(1)), await post(callOf('1'))];
    await runningIs(2);
    // The same id again, alone and twice in one batch: refused, nothing more runs.
    const again = await post(callOf(1));
    expect(await errorIn(again)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32600, message: 'Invalid Request: a call with this id is running in this session' },
    });
    const batch = await post([callOf(2), callOf(2)]);
    expect(await errorIn(batch)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32600, message: 'Invalid Request: a call with this id is running in this session' },
    });
    answers.push(again, batch);
    await runningIs(3);
    // A cancellation names one call: 1 is not "1".
    const cancelled = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await cancelled.ended;
    await runningIs(2);
    // Its session ended, no call of it runs on.
    const ended = await sendLive(`${server.url}/mcp`, 'DELETE', headers);
    await ended.ended;
    expect(ended.status).toBe(200);
    await runningIs(0);
    for (const answer of answers) answer.cut();
  });
});
