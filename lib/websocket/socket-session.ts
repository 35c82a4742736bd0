/** One open WebSocket over its runtime's `SocketPort`: messages to the endpoint's methods, closes with their code. */
import type { RequestContext } from '../context/request-context';
import { WebApplicationException } from '../errors/web-application-exception';
import { logging } from '../logging/logger';
import { SOCKET_OPEN, type SocketListener, type SocketPort } from '../runtime/socket-port';
import { whenCredentialExpires } from '../security/expiry-timer';
import type { StreamEnd } from '../streaming/stream-observer';
import { Inbox, type MessageTurns } from './inbox';
import { SocketAnswers, type Done } from './socket-answers';
import { callSocketMethod, type MessageCallback, type SocketHandlers } from './socket-handlers';
import type { SocketSettings } from './socket-settings';
import { CONNECTION } from './web-socket-connection';
import { unref } from '../runtime/timers';
import { utf8Length } from '../runtime/bytes';

const log = logging.getLogger('rxrest.websocket');

/** How long a closing socket waits for its last messages to be written before it closes anyway. */
const CLOSE_FLUSH_MS = 5_000;

/** A close reason is at most 123 bytes (RFC 6455 §5.5: a control frame's payload is 125 bytes, 2 of them the code). */
function reasonOf(text: string): string {
  if (utf8Length(text) <= 123) return text;
  let cut = text.slice(0, 120);
  while (utf8Length(cut) > 120) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/** How a socket's stream ended, by its close code (the table in docs/websockets.md, "Errors and close codes"). */
function endOf(code: number): StreamEnd {
  if (code === 1008) return 'expired';
  if (code === 1001) return 'shutdown';
  return code === 1000 || code >= 3000 ? 'complete' : 'error';
}

/** What a session has of the server that holds it. */
export interface SessionHost {
  readonly settings: SocketSettings;
  /** The session closed: the server holds it no more (to ping it, or close it at shutdown). */
  remove(session: SocketSession): void;
}

export class SocketSession extends SocketAnswers implements SocketListener, MessageTurns {
  #inboxes: { text?: Inbox; binary?: Inbox } | undefined;
  /** Received bytes waiting for their method; past the incoming buffer the socket is paused. */
  #held = 0;
  #reading: 'yes' | 'paused' | 'stopped' = 'yes';
  /** Once `close` was called: the code and reason once its last messages are written. */
  #closing: { readonly code: number; readonly reason: string } | undefined;
  closeCode: number | undefined;
  closeReason = '';
  #alive = true;
  #cancelExpiry: (() => void) | undefined;

  constructor(
    port: SocketPort,
    ctx: RequestContext,
    handlers: SocketHandlers,
    readonly host: SessionHost,
  ) {
    super(port, ctx, handlers, host.settings.output);
    ctx.set(CONNECTION, this);
  }

  get isOpen(): boolean {
    return this.closeCode === undefined && this.#closing === undefined;
  }

  /** Listens to the socket and calls the endpoint's `@OnOpen`; messages then flow to its message methods. */
  start(): void {
    this.output.attach(this, () => undefined);
    if (this.host.settings.endsOnExpiry)
      this.#cancelExpiry = whenCredentialExpires(this.request, () => this.close(1008, 'The credential expired'));
    if (this.handlers.open) this.call(this.handlers.open, undefined, 'goes-on');
    // A method taking a Multi of every message is called once; when its answers complete, the socket closes (1000).
    for (const kind of ['text', 'binary'] as const) {
      const handler = this.handlers[kind];
      if (handler?.takesAll)
        this.call(handler, this.#inbox(kind, handler).messages(), 'fatal', (goOn) => goOn && this.close(1000, ''));
    }
  }

  /** Reads and sends nothing more, writes what is queued, then closes (at most `CLOSE_FLUSH_MS` later). */
  close(code = 1000, reason = '', end: StreamEnd = endOf(code)): void {
    if (!this.isOpen) return;
    this.#closing = { code, reason };
    if (this.#reading === 'yes') this.port.pause?.();
    this.#reading = 'stopped';
    for (const inbox of Object.values(this.#inboxes ?? {})) inbox.end();
    this.stopAnswers();
    this.output.endWhenIdle(end);
    unref(setTimeout(() => this.end(), CLOSE_FLUSH_MS));
  }

  /** Closes the socket with what `close` said, once its last messages are written or the wait is over. */
  end(): void {
    if (this.closeCode !== undefined || this.port.readyState !== SOCKET_OPEN) return;
    const { code, reason } = this.#closing ?? { code: 1011, reason: 'The endpoint failed' };
    // The peer's closing frame must be read: the socket reads again, and the messages are dropped.
    this.port.resume?.();
    this.port.close(code, reasonOf(reason));
  }

  /** Cuts the socket at once (the end of the shutdown grace, a peer that stopped answering pings). */
  terminate(): void {
    if (this.closeCode === undefined) this.port.terminate();
  }

  message(data: Buffer, binary: boolean): void {
    this.lastActivity = Date.now();
    if (this.#closing) return;
    // `ws` refuses such a message before it is whole; Bun, Deno and workerd hand it over whole.
    if (data.byteLength > this.host.settings.maxMessageSize) return this.close(1009, '');
    const kind = binary ? 'binary' : 'text';
    const handler = this.handlers[kind];
    if (handler) this.#inbox(kind, handler).receive(data);
    else this.close(1003, `This endpoint takes no ${kind} messages`);
  }

  ping(): void {
    this.lastActivity = Date.now();
  }

  pong(): void {
    this.#alive = true;
  }

  error(error: Error): void {
    log.debug(`WebSocket ${this.id}: ${error.message}`);
  }

  held(bytes: number): void {
    this.#held += bytes;
    const { incomingBuffer } = this.host.settings;
    if (this.#reading === 'yes' && this.#held > incomingBuffer) {
      this.#reading = 'paused';
      this.port.pause?.();
    } else if (this.#reading === 'paused' && this.#held <= incomingBuffer / 2) {
      this.#reading = 'yes';
      this.port.resume?.();
    }
  }

  /** A message that does not decode: `@OnError` answers it (the socket goes on), else the socket closes with 1007. */
  badMessage(error: unknown, done: Done): void {
    if (this.handlers.error) return void this.toOnError(error).then(done);
    const reason =
      error instanceof WebApplicationException ? (error.problem?.detail ?? error.message) : 'Invalid message';
    this.close(1007, reason);
    done(false);
  }

  /** A ping at each beat of the server's heartbeat: a peer that did not answer the last one by now is cut. */
  beat(): void {
    if (!this.port.ping) return;
    // A paused socket reads no pong: it is not taken for dead.
    if (!this.#alive && this.#reading === 'yes') return this.terminate();
    this.#alive = false;
    this.port.ping();
  }

  /** At each beat of the server's idle check: a socket silent both ways for the idle timeout closes. */
  checkIdle(now: number): void {
    if (now - this.lastActivity >= this.host.settings.idleTimeoutMs && this.output.idle)
      this.close(1001, 'Idle timeout', 'complete');
  }

  #inbox(kind: 'text' | 'binary', handler: MessageCallback): Inbox {
    return ((this.#inboxes ??= {})[kind] ??= new Inbox(handler, this));
  }

  closed(code: number, reason: string): void {
    this.closeCode = code;
    this.closeReason = reason;
    this.host.remove(this);
    this.#cancelExpiry?.();
    for (const inbox of Object.values(this.#inboxes ?? {})) inbox.end();
    this.output.close();
    this.onGone?.();
    this.stopAnswers();
    // What the upgrade request registered to run once it is over (a concurrent-stream slot) runs now.
    this.request.complete().catch((error: unknown) => log.error('A clean-up of a WebSocket upgrade failed', error));
    const onClose = this.handlers.close;
    // Async, so that a throw and a rejection are logged alike.
    if (onClose)
      (async () => callSocketMethod(this.handlers, onClose, this.request))().catch((error: unknown) =>
        log.error(`${onClose.where} failed`, error),
      );
  }
}
