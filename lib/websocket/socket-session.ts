/**
 * One open WebSocket: received messages go to the endpoint's methods (each in turn, or all as a Multi), what they
 * return goes out in order through one stream output under the stream budget, and the socket is closed with the
 * code that says why (see `close-codes.ts`).
 */
import type { WebSocket } from 'ws';
import { WebApplicationException } from '../errors/web-application-exception';
import type { JsonMapper } from '../json/json-mapper';
import { logging } from '../logging/logger';
import { recover } from '../pipeline/map-errors';
import type { RequestContext } from '../context/request-context';
import { settleToPromise } from '../context/settle';
import { whenCredentialExpires } from '../security/expiry-timer';
import type { Framing } from '../streaming/framing';
import type { Beating, Heartbeat } from '../streaming/heartbeat';
import type { StreamEnd } from '../streaming/stream-observer';
import { StreamOutput } from '../streaming/stream-output';
import { streamObserver } from '../tracing/stream-span';
import { CLOSE_FLUSH_MS, endOf, reasonOf } from './close-codes';
import { FlowControl, Inbox, type MessageTurns } from './inbox';
import { SocketAnswers } from './socket-answers';
import { callSocketMethod, type MessageCallback, type SocketHandlers } from './socket-handlers';
import type { SessionSettings } from './socket-settings';
import { SocketSink, type Corkable } from './socket-sink';
import { CONNECTION, WebSocketConnection, type ConnectionSession } from './web-socket-connection';

const log = logging.getLogger('rxrest.websocket');

/** What a session has of the server that holds it. */
export interface SessionHost {
  readonly sessions: Set<SocketSession>;
  /** The server's ping timer, one for all its sockets (absent: no pings). */
  readonly pings: Heartbeat | undefined;
  /** How the messages written by `json` are framed: one framing for all the sockets of the application. */
  framing(json: JsonMapper): Framing;
}

export class SocketSession implements ConnectionSession, MessageTurns, Beating {
  readonly connection: WebSocketConnection;
  /** Every message out, whichever method sent it: one stream under the budget, its span the socket's. */
  readonly #output: StreamOutput;
  readonly #flow: FlowControl;
  /** The received messages of each kind the endpoint has a method for. */
  readonly #inboxes: { readonly text?: Inbox; readonly binary?: Inbox };
  /** What the methods answer, on its way into the output. */
  readonly #answers: SocketAnswers;
  #idleTimer: NodeJS.Timeout | undefined;
  /** Cancels the timer that closes the socket when its credential expires. */
  #cancelExpiry: (() => void) | undefined;
  #open = true;
  /** Once `close` was called: what the socket is closed with once its last messages are written. */
  #closing: { readonly code: number; readonly reason: string } | undefined;
  #closeCode: number | undefined;
  #closeReason = '';
  #lastActivity = Date.now();
  readonly #tracksIdle: boolean;
  #alive = true;

  constructor(
    readonly socket: WebSocket,
    /** The connection under `socket`, corked for the messages of a tick. */
    readonly transport: Corkable,
    readonly ctx: RequestContext,
    readonly handlers: SocketHandlers,
    readonly settings: SessionSettings,
    readonly host: SessionHost,
  ) {
    this.#flow = new FlowControl(settings.incomingBuffer, socket);
    const { text, binary } = handlers;
    this.#inboxes = {
      text: text && new Inbox(this.#flow, text, false, this),
      binary: binary && new Inbox(this.#flow, binary, true, this),
    };
    this.#tracksIdle = settings.idleTimeoutMs > 0;
    this.#output = new StreamOutput(
      host.framing(handlers.json),
      settings.output,
      (error) => log.error(`WebSocket ${this.connection.id}: its messages failed`, error),
      streamObserver(ctx),
    );
    this.#answers = new SocketAnswers(this.#output, this);
    this.connection = new WebSocketConnection(crypto.randomUUID(), ctx, this);
    ctx.set(CONNECTION, this.connection);
  }

  get open(): boolean {
    return this.#open && this.#closing === undefined;
  }

  get closeCode(): number | undefined {
    return this.#closeCode;
  }

  get closeReason(): string {
    return this.#closeReason;
  }

  /** Wires the socket and calls the endpoint's `@OnOpen`; messages then flow to its message methods. */
  start(): void {
    const { socket, handlers } = this;
    this.host.sessions.add(this);
    socket.on('message', (data: Buffer, binary: boolean) => this.#receive(data, binary));
    socket.on('pong', () => (this.#alive = true));
    socket.on('error', (error) => log.debug(`WebSocket ${this.connection.id}: ${error.message}`));
    socket.once('close', (code: number, reason: Buffer) => this.#closed(code, reason.toString()));
    const touch = this.#tracksIdle ? () => (this.#lastActivity = Date.now()) : undefined;
    this.#output.attach(new SocketSink(socket, this.transport, () => this.#closeSocket(), touch), () => undefined);
    this.#startTimers();
    if (handlers.open) void this.#call(() => callSocketMethod(handlers, handlers.open!, this.ctx), false);
    // A method taking a Multi of every message is called once; when its answers complete, the socket closes (1000).
    for (const inbox of [this.#inboxes.text, this.#inboxes.binary])
      if (inbox?.handler.takesAll)
        void Promise.resolve(
          this.#call(() => callSocketMethod(handlers, inbox.handler, this.ctx, inbox.messages()), true),
        ).then((goOn) => goOn && this.close(1000, ''));
  }

  send(message: unknown): void {
    if (!this.open) return;
    try {
      this.#output.push(message);
    } catch (error) {
      void this.#failed(error, true);
    }
  }

  /**
   * Reads and sends nothing more, writes what is queued, then closes with `code` (at most `CLOSE_FLUSH_MS` later).
   * `end` is how the socket's stream span says it ended.
   */
  close(code: number, reason: string, end: StreamEnd = endOf(code)): void {
    if (!this.open) return;
    this.#closing = { code, reason };
    this.#flow.stop();
    this.#inboxes.text?.end();
    this.#inboxes.binary?.end();
    this.#answers.stop();
    this.#output.endWhenIdle(end);
    setTimeout(() => this.#closeSocket(), CLOSE_FLUSH_MS).unref();
  }

  /** Closes the socket with what `close` said, once its last messages are written or the wait is over. */
  #closeSocket(): void {
    if (!this.#open || this.socket.readyState !== this.socket.OPEN) return;
    const { code, reason } = this.#closing ?? { code: 1011, reason: 'The endpoint failed' };
    // The peer's closing frame must be read: the socket reads again, and the messages are dropped.
    this.socket.resume();
    this.socket.close(code, reasonOf(reason));
  }

  /** Cuts the socket at once (the end of the shutdown grace, a peer that stopped answering pings). */
  terminate(): void {
    if (this.#open) this.socket.terminate();
  }

  #receive(data: Buffer, binary: boolean): void {
    if (this.#tracksIdle) this.#lastActivity = Date.now();
    if (this.#closing) return;
    const inbox = binary ? this.#inboxes.binary : this.#inboxes.text;
    if (inbox) inbox.receive(data);
    else this.close(1003, `This endpoint takes no ${binary ? 'binary' : 'text'} messages`);
  }

  answer(handler: MessageCallback, message: unknown): true | Promise<boolean> {
    return this.#call(() => callSocketMethod(this.handlers, handler, this.ctx, message), false);
  }

  /**
   * Calls `method` and sends what it returns: a plain answer is queued at once (true); one that comes later (a
   * Promise, a stream) settles with whether the socket goes on once it is all queued. A failure closes the socket,
   * or goes to `@OnError`, after which the socket goes on unless `fatal`.
   */
  #call(method: () => unknown, fatal: boolean): true | Promise<boolean> {
    let result: unknown;
    try {
      result = method();
      if (this.#answers.sendNow(result)) return true;
    } catch (error) {
      return this.#failed(error, fatal);
    }
    return this.#answers.send(result).then(
      () => true,
      (error: unknown) => this.#failed(error, fatal),
    );
  }

  /** A message that does not decode: `@OnError` answers it (true: go on), else the socket closes with 1007. */
  async badMessage(error: unknown): Promise<boolean> {
    if (this.handlers.error) return this.#toOnError(error);
    const detail =
      error instanceof WebApplicationException ? (error.problem?.detail ?? error.message) : 'Invalid message';
    this.close(1007, detail);
    return false;
  }

  /**
   * A method failed: `@OnError` answers (true: the socket goes on, unless `fatal`), else the exception mappers map
   * the error, their answer is the last message, and the socket closes with 1011.
   */
  async #failed(error: unknown, fatal: boolean): Promise<boolean> {
    if (!this.open) return false;
    const unavailable = error instanceof WebApplicationException && error.status === 503;
    if (this.handlers.error && (await this.#toOnError(error)) && !fatal && !unavailable) return true;
    if (!this.handlers.error) {
      const mapped = await settleToPromise(recover(this.ctx, error, this.handlers.mappers));
      const entity = mapped.response?.entity;
      if (entity !== undefined && entity !== null) this.send(entity);
    }
    if (unavailable) this.close(1013, error.problem?.detail ?? error.message);
    else this.close(1011, 'The endpoint failed', endOf(1011, error));
    return false;
  }

  async #toOnError(error: unknown): Promise<boolean> {
    try {
      await this.#answers.send(callSocketMethod(this.handlers, this.handlers.error!, this.ctx, error));
      return true;
    } catch (onErrorFailed) {
      log.error(`${this.handlers.error!.where} failed while handling an error`, onErrorFailed);
      this.close(1011, 'The endpoint failed');
      return false;
    }
  }

  /** A ping at each beat of the server's heartbeat: a peer that did not answer the last one by now is cut. */
  beat(): void {
    // A paused socket reads no pong: it is not taken for dead.
    if (!this.#alive && !this.#flow.paused) return this.terminate();
    this.#alive = false;
    this.socket.ping();
  }

  #startTimers(): void {
    const { idleTimeoutMs, endsOnExpiry } = this.settings;
    this.host.pings?.join(this);
    if (idleTimeoutMs > 0) {
      const check = (): void => {
        const idle = Date.now() - this.#lastActivity;
        if (idle >= idleTimeoutMs && this.#output.idle) return this.close(1001, 'Idle timeout', 'complete');
        this.#idleTimer = setTimeout(check, Math.max(idleTimeoutMs - idle, 10)).unref();
      };
      this.#idleTimer = setTimeout(check, idleTimeoutMs).unref();
      this.socket.on('ping', () => (this.#lastActivity = Date.now()));
    }
    if (endsOnExpiry)
      this.#cancelExpiry = whenCredentialExpires(this.ctx, () => this.close(1008, 'The credential expired'));
  }

  #closed(code: number, reason: string): void {
    this.#open = false;
    this.#closeCode = code;
    this.#closeReason = reason;
    this.host.sessions.delete(this);
    this.host.pings?.leave(this);
    clearTimeout(this.#idleTimer);
    this.#cancelExpiry?.();
    this.#inboxes.text?.end();
    this.#inboxes.binary?.end();
    this.#output.close();
    this.#answers.stop();
    // What the upgrade request registered to run once it is over (a concurrent-stream slot) runs now.
    this.ctx.complete().catch((error: unknown) => log.error('A clean-up of a WebSocket upgrade failed', error));
    const onClose = this.handlers.close;
    if (!onClose) return;
    try {
      const result = callSocketMethod(this.handlers, onClose, this.ctx);
      if (result instanceof Promise) result.catch((error: unknown) => log.error(`${onClose.where} failed`, error));
    } catch (error) {
      log.error(`${onClose.where} failed`, error);
    }
  }
}
