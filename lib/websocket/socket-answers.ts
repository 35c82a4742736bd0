/**
 * What a socket's methods answer, on its way out: each answer into the socket's one stream output, in order, through
 * the stream engine's pumps; and what a failed method costs the socket (`@OnError`, the exception mappers, a close).
 */
import type { RequestContext } from '../context/request-context';
import { settleToPromise } from '../context/settle';
import { WebApplicationException } from '../errors/web-application-exception';
import { logging } from '../logging/logger';
import { recover } from '../pipeline/map-errors';
import type { OutputSettings } from '../streaming/frame-writer';
import type { Framing } from '../streaming/framing';
import type { PumpEvents, SourcePump } from '../streaming/source-pump';
import type { StreamEnd } from '../streaming/stream-observer';
import { StreamOutput } from '../streaming/stream-output';
import { pumpFor } from '../streaming/stream-pump';
import { toStreamSource, type StreamSource } from '../streaming/stream-source';
import { streamObserver } from '../tracing/stream-span';
import { endOf } from './close-codes';
import { callSocketMethod, type SocketCallback, type SocketHandlers } from './socket-handlers';
import { WebSocketConnection } from './web-socket-connection';

const log = logging.getLogger('rxrest.websocket');

/** What a failed answer costs: the socket goes on after `@OnError`; it ends; or the failure was `@OnError`'s own. */
export type Stakes = 'goes-on' | 'fatal' | 'on-error';

/** Told once an answer is all in the output, or failed: whether the socket goes on. */
export type Done = (goOn: boolean) => void;

/** What the pump of one streamed answer tells its socket (an object, not closures: an idle socket keeps one). */
class Answer implements PumpEvents {
  pump: SourcePump | undefined;

  constructor(
    readonly socket: SocketAnswers,
    readonly stakes: Stakes,
    readonly done: Done | undefined,
  ) {}

  started(): void {}

  completed(): void {
    this.socket.answered(this);
  }

  failed(error: unknown): void {
    this.socket.answered(this, { error });
  }
}

/** The sending half of a socket's session: the output every method's answers share, under the stream budget. */
export abstract class SocketAnswers extends WebSocketConnection {
  /** Every message out, whichever method sent it: one stream under the budget, its span the socket's. */
  protected readonly output: StreamOutput;
  /** The pumps of the answers being streamed now. */
  #pumps: Set<SourcePump> | undefined;

  constructor(
    ctx: RequestContext,
    readonly handlers: SocketHandlers,
    framing: Framing,
    settings: OutputSettings,
  ) {
    super(ctx);
    this.output = new StreamOutput(
      framing,
      settings,
      (error) => log.error(`WebSocket ${this.id}: its messages failed`, error),
      streamObserver(ctx),
    );
  }

  abstract override close(code?: number, reason?: string, end?: StreamEnd): void;

  send(message: unknown): void {
    if (!this.isOpen) return;
    try {
      this.output.push(message);
    } catch (error) {
      this.failed(error, 'fatal');
    }
  }

  /** A streamed answer is all in the output, or failed. */
  answered(answer: Answer, failure?: { readonly error: unknown }): void {
    this.#pumps?.delete(answer.pump!);
    if (failure) this.failed(failure.error, answer.stakes, answer.done);
    else answer.done?.(true);
  }

  /**
   * Calls `callback` and sends what it returns: a value at once, a Promise's once it is there, a stream's items as
   * they come (an Observable's pushed under the budget, an iterable's pulled as the socket takes them).
   */
  protected call(callback: SocketCallback, message: unknown, stakes: Stakes, done?: Done): void {
    let result: unknown;
    try {
      result = callSocketMethod(this.handlers, callback, this.request, message);
    } catch (error) {
      return this.failed(error, stakes, done);
    }
    this.#send(result, stakes, done);
  }

  /** Stops every answer still being sent: the socket closes, and what waits on them is over too. */
  protected stopAnswers(): void {
    for (const pump of this.#pumps ?? []) pump.stop();
    this.#pumps = undefined;
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
    if (result !== undefined && this.isOpen) {
      const source = toStreamSource(result, true);
      if (source) return this.#pump(source, stakes, done);
      try {
        this.output.push(result);
      } catch (error) {
        return this.failed(error, stakes, done);
      }
    }
    done?.(true);
  }

  #pump(source: StreamSource, stakes: Stakes, done: Done | undefined): void {
    const answer = new Answer(this, stakes, done);
    const pump = (answer.pump = pumpFor(source, this.output, answer));
    (this.#pumps ??= new Set()).add(pump);
    pump.start(false);
  }

  /**
   * A method failed: `@OnError` answers (the socket goes on, unless the stakes are fatal), else the exception mappers
   * map the error, their answer is the last message, and the socket closes with 1011. Resolves with whether it goes on.
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
      const mapped = await settleToPromise(recover(this.request, error, this.handlers.mappers));
      const entity = mapped.response?.entity;
      if (entity !== undefined && entity !== null) this.send(entity);
    }
    if (unavailable) this.close(1013, error.problem?.detail ?? error.message);
    else this.close(1011, 'The endpoint failed', endOf(1011, error));
    return false;
  }
}
