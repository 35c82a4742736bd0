/** A socket's answers on their way out, through the stream engine, and what a failed method costs the socket. */
import type { RequestContext } from '../context/request-context';
import { ResponseContext } from '../context/response-context';
import { settleToPromise } from '../context/settle';
import { WebApplicationException } from '../errors/web-application-exception';
import { logging } from '../logging/logger';
import { recover } from '../pipeline/map-errors';
import { SOCKET_OPEN, type SocketPort } from '../runtime/socket-port';
import type { OutputSettings } from '../streaming/frame-writer';
import type { PumpEvents, SourcePump } from '../streaming/source-pump';
import type { StreamEnd } from '../streaming/stream-observer';
import { StreamOutput } from '../streaming/stream-output';
import { pumpFor } from '../streaming/stream-pump';
import type { StreamSink } from '../streaming/stream-sink';
import { StreamOverflowError, streamFailureLog } from '../streaming/backlog';
import { toStreamSource } from '../streaming/stream-source';
import { streamObserver } from '../tracing/stream-span';
import { callSocketMethod, type SocketCallback, type SocketHandlers } from './socket-handlers';
import { WebSocketConnection } from './web-socket-connection';

const log = logging.getLogger('rxrest.websocket');

// A message framing never fails a written output (no batches): an answer fails, told to its `Answer`.
const outputFailed = streamFailureLog(log, 'The messages of a WebSocket failed');

/** What a failed answer costs: the socket goes on after `@OnError`; it ends; or the failure was `@OnError`'s own. */
export type Stakes = 'goes-on' | 'fatal' | 'on-error';

/** Told once an answer is all in the output, or failed: whether the socket goes on. */
export type Done = (goOn: boolean) => void;

/** One streamed answer's pump events: an object in a linked list, not closures in a set (an idle socket keeps one). */
class Answer implements PumpEvents {
  pump: SourcePump | undefined;
  previous: Answer | undefined;
  next: Answer | undefined;

  constructor(
    readonly socket: SocketAnswers,
    readonly stakes: Stakes,
    readonly done: Done | undefined,
  ) {}

  completed(): void {
    this.socket.answered(this);
  }

  failed(error: unknown): void {
    this.socket.answered(this, { error });
  }
}

/**
 * The sending half of a session: one output under the stream budget for every method's answers, and its sink, each
 * write one message; past the socket's `highWater` (`bufferedAmount`) messages wait in the output until it drains.
 */
export abstract class SocketAnswers extends WebSocketConnection implements StreamSink {
  /** Every message out: one stream under the budget, its span the socket's. */
  protected readonly output: StreamOutput;
  /** When the socket opened, or last sent or got a message or ping (the idle timeout counts from it). */
  protected lastActivity = Date.now();
  /** The latest of the answers being streamed now. */
  #answers: Answer | undefined;
  #ready: (() => void) | undefined;
  /** The callback of a told message, made with the first. */
  #written: (() => void) | undefined;
  /** Told once the socket closes, when the output ended with bytes still in it. */
  protected onGone: (() => void) | undefined;

  constructor(
    readonly port: SocketPort,
    ctx: RequestContext,
    readonly handlers: SocketHandlers,
    settings: OutputSettings,
  ) {
    super(ctx);
    this.output = new StreamOutput(handlers.framing, settings, outputFailed, streamObserver(ctx));
  }

  abstract override close(code?: number, reason?: string, end?: StreamEnd): void;

  /** Closes the socket once the output ended, or failed (it has no abort): its close frame follows what was written. */
  abstract end(): void;

  send(message: unknown): void {
    this.#push(message, 'fatal');
  }

  /** Writes or holds one message; a method's answer goes with its stakes, `done` once in the output. */
  #push(message: unknown, stakes: Stakes, done?: Done): void {
    if (!this.isOpen) return;
    try {
      this.output.push(message);
    } catch (error) {
      return this.failed(error, stakes, done);
    }
    done?.(true);
  }

  /** A streamed answer is all in the output, or failed. */
  answered(answer: Answer, failure?: { readonly error: unknown }): void {
    if (answer.previous) answer.previous.next = answer.next;
    else if (this.#answers === answer) this.#answers = answer.next;
    if (answer.next) answer.next.previous = answer.previous;
    if (failure) this.failed(failure.error, answer.stakes, answer.done);
    else answer.done?.(true);
  }

  write(chunk: string | Uint8Array): boolean {
    const { port } = this;
    if (port.readyState !== SOCKET_OPEN) return true;
    this.lastActivity = Date.now();
    // A per-message callback costs (about 1.5 µs): only a message that may take the socket past its mark is told,
    // so one is always on its way when the output waits (a character is at most 3 bytes, a frame's head 14).
    const told = port.bufferedAmount + 3 * chunk.length + 14 >= port.highWater;
    port.cork?.();
    port.send(chunk, told ? (this.#written ??= () => this.#look()) : undefined);
    return port.bufferedAmount < port.highWater;
  }

  onReady(callback: () => void): void {
    this.#ready = callback;
  }

  buffered(): number {
    return this.port.bufferedAmount;
  }

  /** Once the socket closed (the session calls `onGone` then, after closing the output), it holds none of its bytes. */
  whenGone(callback: () => void): void {
    this.onGone = callback;
  }

  /** Calls `callback` and sends what it returns: a value, a Promise's value, or a stream's items (pushed or pulled). */
  call(callback: SocketCallback, message: unknown, stakes: Stakes, done?: Done): void {
    let result: unknown;
    try {
      result = callSocketMethod(this.handlers, callback, this.request, message);
    } catch (error) {
      return this.failed(error, stakes, done);
    }
    this.#send(result, stakes, done);
  }

  /** Stops every answer still being sent: the socket closes. */
  protected stopAnswers(): void {
    for (let answer = this.#answers; answer; answer = answer.next) answer.pump!.stop();
    this.#answers = undefined;
  }

  protected toOnError(error: unknown): Promise<boolean> {
    return new Promise((done) => this.call(this.handlers.error!, error, 'on-error', done));
  }

  protected failed(error: unknown, stakes: Stakes, done?: Done): void {
    void this.#settleFailure(error, stakes).then(done);
  }

  #send(result: unknown, stakes: Stakes, done: Done | undefined): void {
    if (result instanceof Promise)
      return void result.then(
        (value: unknown) => this.#send(value, stakes, done),
        (error: unknown) => this.failed(error, stakes, done),
      );
    // A method that answers nothing sends no message (and the socket's span counts none).
    if (result === undefined || !this.isOpen) return done?.(true);
    const source = toStreamSource(result, true);
    if (!source) return this.#push(result, stakes, done);
    const answer = new Answer(this, stakes, done);
    answer.pump = pumpFor(source, this.output, answer);
    if ((answer.next = this.#answers)) answer.next.previous = answer;
    this.#answers = answer;
    answer.pump.start(false);
  }

  /**
   * `@OnError` answers (the socket goes on unless the stakes are fatal), else the mappers' answer is the last message
   * and the socket closes with 1011. Resolves with whether it goes on.
   */
  async #settleFailure(error: unknown, stakes: Stakes): Promise<boolean> {
    if (stakes === 'on-error') {
      log.error(`${this.handlers.error!.where} failed while handling an error`, error);
      this.close(1011, 'The endpoint failed');
      return false;
    }
    if (!this.isOpen) return false;
    const unavailable = error instanceof WebApplicationException && error.status === 503;
    if (this.handlers.error && (await this.toOnError(error)) && stakes === 'goes-on' && !unavailable) return true;
    if (!this.handlers.error) {
      // Not the bare 101 every socket shares (socket-server.ts): a mapper given the response gets this socket's own.
      this.request.response = new ResponseContext(101);
      const mapped = await settleToPromise(recover(this.request, error, this.handlers.mappers));
      const entity = mapped.response?.entity;
      if (entity !== undefined && entity !== null) this.send(entity);
    }
    if (unavailable) this.close(1013, error.problem?.detail ?? error.message);
    else this.close(1011, 'The endpoint failed', error instanceof StreamOverflowError ? 'overflow' : 'error');
    return false;
  }

  /** A told message was written: a waiting output goes on once the socket holds less than its mark. */
  #look(): void {
    const ready = this.#ready;
    if (!ready || (this.port.readyState === SOCKET_OPEN && this.port.bufferedAmount >= this.port.highWater)) return;
    this.#ready = undefined;
    ready();
  }
}
