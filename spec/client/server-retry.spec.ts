// A server's `retry:` longer than a timer holds (about 24.8 days): over a real socket, the resuming client waits,
// as it was asked, instead of taking the delay for 1 ms (what a Node timer does past its limit) and reconnecting in
// a loop for as long as each connection brings an event.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GET, HeaderParam, Path, Produces, RestClient, type Multi } from '../../lib/client';
import { until, within } from '../support/until';

@Path('ticks')
class Ticks {
  @GET @Produces('text/event-stream') ticks(@HeaderParam('Last-Event-ID') _lastEventId?: string): Multi<number> {
    throw new Error('a contract');
  }
}

let server: Server;
let baseUrl: string;
let connections = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    connections++;
    // 4,000,000,000 ms: 46 days, past the 2^31 - 1 ms a timer holds.
    res
      .writeHead(200, { 'content-type': 'text/event-stream' })
      .end(`retry: 4000000000\nid: ${connections}\ndata: 1\n\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await within(new Promise((resolve) => server.close(resolve)), 'the server to close', 5000);
});

describe('a retry: past what a timer holds', () => {
  it('is waited for, not taken for 1 ms', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const items: unknown[] = [];
    const subscription = RestClient.create(Ticks, { baseUrl })
      .ticks()
      .subscribe({ next: (item) => items.push(item), error: () => undefined });
    try {
      await until(() => items.length || undefined, 'the first event', 5000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(connections).toBe(1);
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      subscription.unsubscribe();
      process.off('warning', onWarning);
    }
  });
});
