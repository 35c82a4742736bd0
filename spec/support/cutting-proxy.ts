/**
 * Test helper: a TCP proxy that cuts each connection once `limit` bytes of answer have passed, as a flaky network or
 * a restarting load balancer would. Connections go to each upstream port in turn; the first `refuse` connections are
 * closed at once, before anything is forwarded. It notes each request's Last-Event-ID and which upstream took it.
 * The proxies of a spec file, and every connection through them, are closed after it, whatever its tests left open.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

const proxies = new Set<Server>();
const sockets = new Set<Socket>();
afterAll(() => {
  for (const socket of sockets) socket.destroy();
  for (const server of proxies) server.close();
});

/** Notes `socket` as open until it closes. */
function track(socket: Socket): Socket {
  sockets.add(socket);
  return socket.once('close', () => sockets.delete(socket));
}

export interface CuttingProxy {
  readonly url: string;
  readonly server: Server;
  /** The Last-Event-ID of each request forwarded, in order (`undefined` when it had none). */
  readonly lastEventIds: (string | undefined)[];
  /** The upstream port of each request forwarded, in order. */
  readonly upstreams: number[];
  /** Connections closed before anything was forwarded. */
  readonly refused: number;
}

export interface CuttingProxyOptions {
  /** Bytes of answer after which a connection is cut (`Infinity`: never). */
  readonly limit: number;
  /** How many connections, the first ones, to close at once. */
  readonly refuse?: number;
}

export function cuttingProxy(ports: readonly number[], options: CuttingProxyOptions): Promise<CuttingProxy> {
  const lastEventIds: (string | undefined)[] = [];
  const upstreams: number[] = [];
  let connections = 0;
  let refused = 0;
  const server = createServer((client: Socket) => {
    track(client).on('error', () => undefined);
    if (refused < (options.refuse ?? 0)) {
      refused++;
      return void client.destroy();
    }
    const port = ports[connections++ % ports.length]!;
    const upstream = track(connect(port, '127.0.0.1'));
    let passed = 0;
    client.once('data', (head: Buffer) => {
      lastEventIds.push(/last-event-id: *(\S+)/i.exec(head.toString())?.[1]);
      upstreams.push(port);
    });
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      passed += chunk.length;
      if (passed > options.limit) {
        client.destroy();
        upstream.destroy();
      }
    });
    for (const socket of [client, upstream])
      socket.on('error', () => undefined).on('close', () => (client.destroy(), upstream.destroy()));
  });
  proxies.add(server.once('close', () => proxies.delete(server)));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        server,
        lastEventIds,
        upstreams,
        get refused() {
          return refused;
        },
      }),
    ),
  );
}
