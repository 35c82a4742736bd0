// What `resources/subscribe` keeps of a session is bounded, over a real socket: a session's subscriptions were a set
// any client grew without bound, one URI after another, and a URI the store refused (past
// framework.broadcast.max-event-size) was kept anyway, answered only with "Internal error": 300 subscriptions of
// 900 KB URIs in one session took the samples from 135 MB of RSS to 689 MB. A subscription that would make the
// session more than one event of the store holds (what a touch repeats to the other instances) is refused with
// -32602 before anything is kept; the ones before it still hear of their resource.
import { McpResource, McpServer, mcpNotifier, RestApplication, type RunningServer } from '../../lib';
import { initializeRequest, mcpPostOver, sseMessages } from '../support/mcp';
import { openSse } from '../support/sse-client';

@McpServer('/mcp')
class Items {
  @McpResource({ uriTemplate: 'items://{id}', name: 'item' })
  item(vars: { id: string }): string {
    return `item ${vars.id}`;
  }
}

let server: RunningServer;
let session: string;
let headers: Record<string, string>;
beforeAll(async () => {
  const app = RestApplication.build({
    classes: [Items],
    overrides: { 'framework.rest.sse.keep-alive': '0', 'framework.broadcast.max-event-size': '4K' },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  const opened = await post(initializeRequest(), {});
  session = opened.headers.get('mcp-session-id')!;
  await opened.text();
  headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
});
afterAll(() => server.close());

const post = (body: unknown, extra: Record<string, string>) => mcpPostOver(server.url, body, extra);

async function subscribe(
  uri: string,
  id: number,
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const answer = await post({ jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } }, headers);
  return (await answer.json()) as { result?: unknown; error?: { code: number; message: string } };
}

describe('resources/subscribe', () => {
  it('refuses a subscription past what one event of the store holds with -32602, and keeps nothing of it', async () => {
    const uri = (n: number) => `items://${n}-${'x'.repeat(500)}`;
    let taken = 0;
    let refused: { code: number; message: string } | undefined;
    for (let n = 0; n < 100 && !refused; n++) {
      const answer = await subscribe(uri(n), n);
      if (answer.error) refused = answer.error;
      else taken++;
    }
    expect([taken > 0 && taken < 8, refused]).toEqual([
      true,
      { code: -32602, message: "The session's subscriptions would pass 4K (framework.broadcast.max-event-size)" },
    ]);
    // A URI larger than any event: refused the same way (it was kept, and answered "Internal error").
    expect((await subscribe(`items://${'y'.repeat(8192)}`, 1000)).error?.code).toBe(-32602);
    // Unsubscribing makes room again.
    expect(
      (await post({ jsonrpc: '2.0', id: 1001, method: 'resources/unsubscribe', params: { uri: uri(0) } }, headers))
        .status,
    ).toBe(200);
    expect((await subscribe(uri(500), 1002)).result).toEqual({});
    const stream = await openSse(`${server.url}/mcp`, headers);
    expect(stream.status).toBe(200);
    // The session hears of its resources, not of the one refused.
    await mcpNotifier(Items).resourceUpdated(uri(taken));
    await mcpNotifier(Items).resourceUpdated(uri(1));
    await stream.until((events) => events.some((event) => event.data.includes('resources/updated')));
    const updated = sseMessages(stream.events.map((event) => `data: ${event.data}\n\n`).join(''));
    expect(updated.map((message) => (message.params as { uri: string }).uri)).toEqual([uri(1)]);
    stream.cut();
  });
});
