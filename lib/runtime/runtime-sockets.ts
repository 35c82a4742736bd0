/** WebSocket upgrades through Deno's, workerd's and Bun's own APIs, as `SocketPort`s (Node's go through `ws`). */
import { BunPort } from './bun-socket-port';
import { currentRuntime } from './runtime-name';
import type { SocketListener, SocketPort } from './socket-port';
import { toBuffer, WaitingPort } from './waiting-port';

export { bunWebSocket } from './bun-socket-port';

/** A socket the runtime upgraded, and what `fetch` answers for it (nothing on Bun: its server answers itself). */
export interface RuntimeUpgrade {
  readonly port: SocketPort;
  readonly answer: Response | undefined;
}

interface DenoUpgrade {
  upgradeWebSocket(request: Request): { socket: WebSocket; response: Response };
}

interface BunServer {
  upgrade?(request: Request, options: { data: unknown; headers: Headers }): boolean;
}

/** Whether the runtime serving `fetch` upgrades sockets itself (Bun, Deno, Workers). */
export function upgradesOnRuntime(): boolean {
  const runtime = currentRuntime();
  return runtime === 'bun' || runtime === 'deno' || runtime === 'workerd';
}

/** Upgrades `request` with the runtime's API, its 101 carrying `headers`; `undefined` where it cannot. */
export function upgradeOnRuntime(request: Request, environment: unknown, headers: Headers): RuntimeUpgrade | undefined {
  const runtime = currentRuntime();
  if (runtime === 'deno') {
    const { socket, response } = (globalThis as unknown as { Deno: DenoUpgrade }).Deno.upgradeWebSocket(request);
    for (const [name, value] of headers) response.headers.append(name, value);
    return { port: new WebPort(socket, false), answer: response };
  }
  if (runtime === 'workerd') {
    const Pair = (globalThis as unknown as { WebSocketPair: new () => Record<0 | 1, WebSocket> }).WebSocketPair;
    const pair = new Pair();
    (pair[1] as WebSocket & { accept(): void }).accept();
    const answer = new Response(null, { status: 101, headers, webSocket: pair[0] } as ResponseInit);
    return { port: new WebPort(pair[1], true), answer };
  }
  const port = new BunPort();
  if (runtime !== 'bun' || (environment as BunServer | undefined)?.upgrade?.(request, { data: port, headers }) !== true)
    return undefined;
  return { port, answer: undefined };
}

/**
 * What a Web `WebSocket` may hold before its session waits: Deno counts a message until written a turn later. On Deno
 * 2.9 (20,000 16 KB messages, a fast reader) 64 KB sent ~10 MB/s, 1 MB ~150 MB/s, 4 MB ~500 MB/s.
 */
const WEB_HIGH_WATER = 1024 * 1024;

/** A Web `WebSocket` (Deno, workerd): no ping, pause or cork. */
class WebPort extends WaitingPort<WebSocket> implements SocketPort {
  // The base's field holds the socket from the start: no second field for an open socket to keep.
  constructor(socket: WebSocket, open: boolean) {
    super();
    this.socket = socket;
    socket.binaryType = 'arraybuffer';
    if (open) this.opened(socket);
    else socket.addEventListener('open', () => this.opened(socket), { once: true });
  }

  get highWater(): number {
    return WEB_HIGH_WATER;
  }

  /** workerd's socket has no `bufferedAmount`: there it holds nothing that rxrest can see. */
  protected get socketBuffered(): number {
    return this.socket!.bufferedAmount ?? 0;
  }

  protected deliver(message: string | Uint8Array): void {
    this.socket!.send(message);
  }

  /** A Web `WebSocket` cannot drop its connection: the nearest it has is a closing handshake with no code. */
  terminate(): void {
    this.socket!.close();
  }

  listen(listener: SocketListener): void {
    const socket = this.socket!;
    socket.addEventListener('message', (event) => {
      const data = (event as Event & { data: string | ArrayBuffer }).data;
      listener.message(toBuffer(data), typeof data !== 'string');
    });
    socket.addEventListener('close', (event) => {
      const { code, reason } = event as Event & { code: number; reason: string };
      listener.closed(code, reason);
    });
    socket.addEventListener('error', () => listener.error(new Error('WebSocket error')));
  }
}
