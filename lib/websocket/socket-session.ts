/**
 * One open WebSocket: received messages go to the endpoint's methods (each in turn, or all as a Multi), what they
 * return goes out in order under the stream budget, and the socket is closed with the code that says why.
 *
 * Close codes: 1000 when a method's Multi of answers completes or `close()` is called; 1001 at shutdown and after
 * the idle timeout; 1002 for broken framing (by `ws`); 1003 for a kind of message the class has no method for; 1007
 * for a message that does not decode (unless `@OnError` takes it), or text that is not UTF-8 (by `ws`); 1008 when the
 * credential that opened the socket expires, or (by `ws`) a message in more fragments than
 * `framework.websocket.max-message-fragments`; 1009 for a message past `framework.websocket.max-message-size` (by
 * `ws`); 1011 when a method fails (after the exception mappers had their say: their answer is the last message);
 * 1013, with the problem's detail, when it fails with a 503 (the server cannot serve this socket now: a limit
 * reached, a backend away), even when `@OnError` answered it.
 */
import { randomUUID } from 'node:crypto';
import { Observable } from 'rxjs/internal/Observable';
import type { Subscription } from 'rxjs';
import type { WebSocket } from 'ws';
import { WebApplicationException } from '../errors/web-application-exception';
import { logging } from '../logging/logger';
import { recover } from '../pipeline/map-errors';
import type { RequestContext } from '../context/request-context';
import { settleToPromise } from '../context/settle';
import { whenCredentialExpires } from '../security/expiry-timer';
import type { OverflowPolicy } from '../streaming/backlog';
import { pulledSourceOf } from '../streaming/multi';
import { isSseEvent } from '../streaming/sse-event';
import { FlowControl, Inbox, IncomingMessages } from './inbox';
import { Outbox, type OutgoingMessage } from './outbox';
import type { MessageCallback, SocketHandlers } from './socket-handlers';
import { CONNECTION, WebSocketConnection, type ConnectionSession } from './web-socket-connection';

const log = logging.getLogger('rxrest.websocket');

export interface SessionSettings {
  /** Received bytes held for a lagging handler before the socket is paused. */
  readonly incomingBuffer: number;
  /** The outgoing byte budget and what happens past it (`framework.rest.stream.*`). */
  readonly budget: number;
  readonly overflow: OverflowPolicy;
  readonly pingIntervalMs: number;
  readonly idleTimeoutMs: number;
  /** Close the socket when the credential that opened it expires. */
  readonly endsOnExpiry: boolean;
}

/** How long a closing socket waits for its last messages to be written before it closes anyway. */
const CLOSE_FLUSH_MS = 5_000;

/** A close reason is at most 123 bytes (RFC 6455 §5.5: a control frame's payload is 125 bytes, 2 of them the code). */
function reasonOf(text: string): string {
  if (Buffer.byteLength(text) <= 123) return text;
  let cut = text.slice(0, 120);
  while (Buffer.byteLength(cut) > 120) cut = cut.slice(0, -1);
  return `${cut}...`;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

export class SocketSession implements ConnectionSession {
  readonly connection: WebSocketConnection;
  readonly #outbox: Outbox;
  readonly #flow: FlowControl;
  readonly #inboxes: { text: Inbox; binary: Inbox };
  readonly #subscriptions = new Set<Subscription>();
  readonly #timers: NodeJS.Timeout[] = [];
  /** Cancels the timer that closes the socket when its credential expires. */
  #cancelExpiry: (() => void) | undefined;
  #open = true;
  #closing = false;
  #closeCode: number | undefined;
  #closeReason = '';
  #lastActivity = Date.now();
  readonly #tracksIdle: boolean;
  /** Whether a method taking each message is still sending its answers to the last one. */
  readonly #busy = { text: false, binary: false };
  #alive = true;

  constructor(
    readonly socket: WebSocket,
    readonly ctx: RequestContext,
    readonly handlers: SocketHandlers,
    readonly settings: SessionSettings,
    readonly sessions: Set<SocketSession>,
  ) {
    this.#outbox = new Outbox(socket, settings.budget, settings.overflow);
    this.#flow = new FlowControl(settings.incomingBuffer, socket);
    this.#inboxes = { text: new Inbox(this.#flow), binary: new Inbox(this.#flow) };
    this.#tracksIdle = settings.idleTimeoutMs > 0;
    this.connection = new WebSocketConnection(randomUUID(), ctx, this);
    ctx.set(CONNECTION, this.connection);
  }

  get open(): boolean {
    return this.#open && !this.#closing;
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
    this.sessions.add(this);
    socket.on('message', (data: Buffer, binary: boolean) => this.#receive(data, binary));
    socket.on('pong', () => (this.#alive = true));
    socket.on('error', (error) => log.debug(`WebSocket ${this.connection.id}: ${error.message}`));
    socket.once('close', (code: number, reason: Buffer) => this.#closed(code, reason.toString()));
    this.#startTimers();
    if (handlers.open) this.#run(() => handlers.open!.call(this.ctx), true);
    for (const kind of ['text', 'binary'] as const) {
      const handler = handlers[kind];
      if (handler?.takesAll) this.#serveAll(kind, handler);
    }
  }

  send(message: unknown): void {
    if (!this.open) return;
    try {
      this.#push(message);
    } catch (error) {
      void this.#failed(error, true);
    }
  }

  /** Reads nothing more, writes what is queued, then closes with `code` (at most `CLOSE_FLUSH_MS` later). */
  close(code: number, reason: string): void {
    if (!this.#open || this.#closing) return;
    this.#closing = true;
    this.#flow.stop();
    this.#inboxes.text.end();
    this.#inboxes.binary.end();
    const flushed = this.#outbox.drained();
    const limit = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_FLUSH_MS).unref());
    void Promise.race([flushed, limit]).then(() => {
      if (!this.#open) return;
      // The peer's closing frame must be read: the socket reads again, and the messages are dropped.
      this.socket.resume();
      this.socket.close(code, reasonOf(reason));
    });
  }

  /** Cuts the socket at once (the end of the shutdown grace, a peer that stopped answering pings). */
  terminate(): void {
    if (this.#open) this.socket.terminate();
  }

  #receive(data: Buffer, binary: boolean): void {
    if (this.#tracksIdle) this.#lastActivity = Date.now();
    if (this.#closing) return;
    const kind = binary ? 'binary' : 'text';
    const handler = this.handlers[kind];
    if (!handler) {
      this.close(1003, `This endpoint takes no ${kind} messages`);
      return;
    }
    const inbox = this.#inboxes[kind];
    // A method taking each message, free and with nothing waiting, handles this one at once.
    if (!handler.takesAll && !this.#busy[kind] && inbox.empty) this.#handle(kind, handler, data);
    else inbox.push(data);
  }

  /**
   * One message to a method taking each message. A plain answer is queued at once; one that comes later (a Promise,
   * an Observable) holds the next messages in the inbox until it is all queued, so answers keep the messages' order.
   */
  #handle(kind: 'text' | 'binary', handler: MessageCallback, data: Buffer): void {
    let message: unknown;
    try {
      message = handler.decode(data, kind === 'binary');
    } catch (error) {
      return this.#wait(kind, handler, this.#badMessage(error));
    }
    let result: unknown;
    try {
      result = handler.call(this.ctx, message);
    } catch (error) {
      return this.#wait(kind, handler, this.#failed(error, false));
    }
    if (result instanceof Promise || result instanceof Observable || isAsyncIterable(result)) {
      const sent = this.#sendResult(result).then(
        () => true,
        (error: unknown) => this.#failed(error, false),
      );
      return this.#wait(kind, handler, sent);
    }
    try {
      this.#push(result);
    } catch (error) {
      this.#wait(kind, handler, this.#failed(error, false));
    }
  }

  /** Holds the kind's messages until `done`; then, unless it says the socket is over, handles those that waited. */
  #wait(kind: 'text' | 'binary', handler: MessageCallback, done: Promise<boolean>): void {
    this.#busy[kind] = true;
    void done.then((goOn) => {
      this.#busy[kind] = false;
      const inbox = this.#inboxes[kind];
      for (let data = goOn ? inbox.shift() : undefined; data !== undefined; data = inbox.shift()) {
        this.#handle(kind, handler, data);
        if (this.#busy[kind] || this.#closing) return;
      }
    });
  }

  /** One call with every message as a Multi; when its answers complete, the socket closes (1000). */
  #serveAll(kind: 'text' | 'binary', handler: MessageCallback): void {
    const inbox = this.#inboxes[kind];
    const next = async (): Promise<IteratorResult<unknown>> => {
      for (let data = await inbox.take(); data !== undefined; data = await inbox.take()) {
        try {
          return { done: false, value: handler.decode(data, kind === 'binary') };
        } catch (error) {
          if (!(await this.#badMessage(error))) break;
        }
      }
      return { done: true, value: undefined };
    };
    this.#run(
      () => handler.call(this.ctx, new IncomingMessages(next)),
      false,
      () => this.close(1000, ''),
    );
  }

  /** Calls `method`, sends what it returns; `onEnd` once that is all sent. A failure closes, or goes to `@OnError`. */
  #run(method: () => unknown, survives: boolean, onEnd?: () => void): void {
    let result: unknown;
    try {
      result = method();
    } catch (error) {
      void this.#failed(error, !survives);
      return;
    }
    this.#sendResult(result).then(
      () => this.open && onEnd?.(),
      (error: unknown) => void this.#failed(error, !survives),
    );
  }

  /** Sends what a method returned: nothing, a value, a Promise, an Observable (in order), an async iterable (pulled). */
  async #sendResult(result: unknown): Promise<void> {
    if (result instanceof Promise) result = await result;
    if (result === undefined || !this.open) return;
    if (result instanceof Observable) {
      const pulled = pulledSourceOf(result);
      return pulled ? this.#sendPulled(pulled) : this.#sendObservable(result);
    }
    if (isAsyncIterable(result)) return this.#sendPulled(result);
    this.#push(result);
  }

  #sendObservable(source: Observable<unknown>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let failed = false;
      let subscription: Subscription | undefined = undefined;
      subscription = source.subscribe({
        next: (item) => {
          if (failed || !this.open) return;
          try {
            this.#push(item);
          } catch (error) {
            failed = true;
            // Rejected first: the unsubscription resolves the send, which must not pass for a success.
            reject(error);
            subscription?.unsubscribe();
          }
        },
        error: (error: unknown) => reject(error),
        complete: () => resolve(),
      });
      const subscribed = subscription;
      if (failed) return subscribed.unsubscribe();
      this.#subscriptions.add(subscribed);
      // Closing the socket unsubscribes: what waits on this promise is over too.
      subscribed.add(() => {
        this.#subscriptions.delete(subscribed);
        resolve();
      });
    });
  }

  async #sendPulled(source: Iterable<unknown> | AsyncIterable<unknown>): Promise<void> {
    for await (const item of source) {
      if (!this.open) break;
      this.#push(item);
      await this.#outbox.room();
    }
  }

  /** Queues one item to send; throws past the budget under the `fail` policy. */
  #push(item: unknown): void {
    const encoded = this.#encode(item);
    if (!encoded) return;
    if (this.#tracksIdle) this.#lastActivity = Date.now();
    this.#outbox.push(encoded);
  }

  /** A string as text, bytes as binary, an SSE event (a broadcast's) as its data, anything else as JSON text. */
  #encode(item: unknown): OutgoingMessage | undefined {
    if (item === undefined) return undefined;
    if (typeof item === 'string') return { data: item, binary: false };
    if (item instanceof Uint8Array)
      return { data: Buffer.from(item.buffer, item.byteOffset, item.byteLength), binary: true };
    if (item instanceof ArrayBuffer) return { data: Buffer.from(item), binary: true };
    if (isSseEvent(item)) return this.#encode(item.data);
    return { data: this.handlers.json.writeValueAsString(item), binary: false };
  }

  /** A message that does not decode: `@OnError` answers it (true: go on), else the socket closes with 1007. */
  async #badMessage(error: unknown): Promise<boolean> {
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
    else this.close(1011, 'The endpoint failed');
    return false;
  }

  async #toOnError(error: unknown): Promise<boolean> {
    try {
      await this.#sendResult(this.handlers.error!.call(this.ctx, error));
      return true;
    } catch (onErrorFailed) {
      log.error(`${this.handlers.error!.where} failed while handling an error`, onErrorFailed);
      this.close(1011, 'The endpoint failed');
      return false;
    }
  }

  #startTimers(): void {
    const { pingIntervalMs, idleTimeoutMs, endsOnExpiry } = this.settings;
    if (pingIntervalMs > 0) {
      this.#timers.push(
        setInterval(() => {
          // A paused socket reads no pong: it is not taken for dead.
          if (!this.#alive && !this.#flow.paused) return this.terminate();
          this.#alive = false;
          this.socket.ping();
        }, pingIntervalMs).unref(),
      );
    }
    if (idleTimeoutMs > 0) {
      const check = () => {
        const idle = Date.now() - this.#lastActivity;
        if (idle >= idleTimeoutMs && this.#outbox.size === 0) return this.close(1001, 'Idle timeout');
        this.#timers.push(setTimeout(check, Math.max(idleTimeoutMs - idle, 10)).unref());
      };
      this.#timers.push(setTimeout(check, idleTimeoutMs).unref());
      this.socket.on('ping', () => (this.#lastActivity = Date.now()));
    }
    if (endsOnExpiry)
      this.#cancelExpiry = whenCredentialExpires(this.ctx, () => this.close(1008, 'The credential expired'));
  }

  #closed(code: number, reason: string): void {
    this.#open = false;
    this.#closeCode = code;
    this.#closeReason = reason;
    this.sessions.delete(this);
    for (const timer of this.#timers) clearTimeout(timer);
    this.#cancelExpiry?.();
    this.#inboxes.text.end();
    this.#inboxes.binary.end();
    this.#outbox.clear();
    for (const subscription of [...this.#subscriptions]) subscription.unsubscribe();
    // What the upgrade request registered to run once it is over (a concurrent-stream slot) runs now.
    this.ctx.complete().catch((error: unknown) => log.error('A clean-up of a WebSocket upgrade failed', error));
    const onClose = this.handlers.close;
    if (!onClose) return;
    try {
      const result = onClose.call(this.ctx);
      if (result instanceof Promise) result.catch((error: unknown) => log.error(`${onClose.where} failed`, error));
    } catch (error) {
      log.error(`${onClose.where} failed`, error);
    }
  }
}
