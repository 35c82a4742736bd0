/**
 * WebSocket upgrades through each runtime's own API, as `SocketPort`s for the socket session: `Deno.upgradeWebSocket`,
 * workerd's `WebSocketPair`, and Bun's `server.upgrade` (whose socket's events come through the `websocket` handlers
 * given to `Bun.serve`: `bunWebSocket`). Node has none here: `listen()` upgrades through `ws`. Knows Web requests and
 * the runtimes' socket APIs only, nothing of endpoints.
 */
import { nodeBuiltin } from './node-builtins';
import { currentRuntime } from './runtime-name';
import { SOCKET_OPEN, type SocketListener, type SocketPort } from './socket-port';

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

/** What Bun hands the `websocket` handlers: its socket, with the port as its data. */
interface BunSocket {
  readonly data: BunPort;
  readonly readyState: number;
  send(message: string | Uint8Array): number;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  getBufferedAmount(): number;
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

const toBuffer = (data: string | ArrayBuffer | Uint8Array) => {
  const { Buffer } = nodeBuiltin('node:buffer', 'WebSockets');
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data as ArrayBuffer);
};

/**
 * Messages sent before the socket opened, held until it does (a session greets in `@OnOpen` at once); while they wait
 * the socket counts as open.
 */
abstract class WaitingPort {
  #waiting: (string | Uint8Array)[] | undefined = [];
  #closing: [number, string] | undefined;

  protected abstract deliver(message: string | Uint8Array): void;
  protected abstract shut(code: number, reason: string): void;

  protected get waiting(): boolean {
    return this.#waiting !== undefined;
  }

  send(message: string | Uint8Array, sent?: () => void): void {
    if (this.#waiting) this.#waiting.push(message);
    else this.deliver(message);
    if (sent) queueMicrotask(sent);
  }

  close(code: number, reason: string): void {
    if (this.#waiting) this.#closing = [code, reason];
    else this.shut(code, reason);
  }

  /** The socket opened: what waited goes out, and a close asked meanwhile follows it. */
  protected opened(): void {
    const waiting = this.#waiting ?? [];
    this.#waiting = undefined;
    for (const message of waiting) this.deliver(message);
    if (this.#closing) this.shut(...this.#closing);
  }
}

/** A Web `WebSocket` (Deno, workerd): no ping, pause or cork. */
class WebPort extends WaitingPort implements SocketPort {
  constructor(
    readonly socket: WebSocket,
    open: boolean,
  ) {
    super();
    socket.binaryType = 'arraybuffer';
    if (open) this.opened();
    else socket.addEventListener('open', () => this.opened(), { once: true });
  }

  get readyState(): number {
    return this.waiting ? SOCKET_OPEN : this.socket.readyState;
  }

  get bufferedAmount(): number {
    return this.socket.bufferedAmount ?? 0;
  }

  protected deliver(message: string | Uint8Array): void {
    this.socket.send(message);
  }

  protected shut(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  terminate(): void {
    this.socket.close();
  }

  listen(listener: SocketListener): void {
    const { socket } = this;
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

/** A Bun `ServerWebSocket`, known once Bun opens it (the `open` handler). */
class BunPort extends WaitingPort implements SocketPort {
  socket: BunSocket | undefined;
  listener: SocketListener | undefined;

  get readyState(): number {
    return this.socket?.readyState ?? SOCKET_OPEN;
  }

  get bufferedAmount(): number {
    return this.socket?.getBufferedAmount() ?? 0;
  }

  protected deliver(message: string | Uint8Array): void {
    this.socket!.send(message);
  }

  protected shut(code: number, reason: string): void {
    this.socket!.close(code, reason);
  }

  terminate(): void {
    this.socket?.terminate();
  }

  ping(): void {
    this.socket?.ping();
  }

  listen(listener: SocketListener): void {
    this.listener = listener;
  }

  open(socket: BunSocket): void {
    this.socket = socket;
    this.opened();
  }
}

/**
 * The `websocket` handlers of `Bun.serve` for an rxrest application: each socket's events go to the session its
 * upgrade started (the socket's data).
 *
 * @example
 * Bun.serve({ fetch: app.fetch, websocket: bunWebSocket });
 */
export const bunWebSocket = {
  open: (socket: BunSocket): void => socket.data.open(socket),
  message: (socket: BunSocket, message: string | Uint8Array): void =>
    socket.data.listener?.message(toBuffer(message), typeof message !== 'string'),
  close: (socket: BunSocket, code: number, reason: string): void => socket.data.listener?.closed(code, reason),
  ping: (socket: BunSocket): void => socket.data.listener?.ping(),
  pong: (socket: BunSocket): void => socket.data.listener?.pong(),
};
