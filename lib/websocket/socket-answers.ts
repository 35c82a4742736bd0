/** What a socket's methods answer, on its way out: each answer into the socket's one stream output, in order. */
import type { PumpEvents, SourcePump } from '../streaming/source-pump';
import type { StreamOutput } from '../streaming/stream-output';
import { pumpFor } from '../streaming/stream-pump';
import { toStreamSource, type StreamSource } from '../streaming/stream-source';

/** What the pump of one answer tells: the send settles, and the pump is let go. */
class Answer implements PumpEvents {
  pump: SourcePump | undefined;

  constructor(
    readonly pumps: Set<SourcePump>,
    readonly resolve: () => void,
    readonly reject: (error: unknown) => void,
  ) {}

  started(): void {}

  completed(): void {
    this.pumps.delete(this.pump!);
    this.resolve();
  }

  failed(error: unknown): void {
    this.pumps.delete(this.pump!);
    this.reject(error);
  }
}

/**
 * A value goes out as a message, a Promise's value once it is there, a stream's items as they come (an Observable's
 * pushed under the budget, an iterable's pulled as the socket takes them), through the pumps of the stream engine.
 */
export class SocketAnswers {
  /** The pumps of the answers being sent now. */
  readonly #pumps = new Set<SourcePump>();

  constructor(
    readonly output: StreamOutput,
    /** The socket, which takes nothing more once closing. */
    readonly socket: { readonly open: boolean },
  ) {}

  /** Sends a plain `result` now (true); false for one that comes later (a Promise, a stream): `send` takes it. */
  sendNow(result: unknown): boolean {
    if (result instanceof Promise || toStreamSource(result, true)) return false;
    this.output.push(result);
    return true;
  }

  /** Sends `result`: settles once all of it is in the output (or the socket closed first), rejects when it failed. */
  async send(result: unknown): Promise<void> {
    if (result instanceof Promise) result = await result;
    if (result === undefined || !this.socket.open) return;
    const source = toStreamSource(result, true);
    if (source) return this.#pump(source);
    this.output.push(result);
  }

  /** Stops every answer still being sent: the socket closes, and what waits on them is over too. */
  stop(): void {
    for (const pump of this.#pumps) pump.stop();
    this.#pumps.clear();
  }

  #pump(source: StreamSource): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const answer = new Answer(this.#pumps, resolve, reject);
      const pump = (answer.pump = pumpFor(source, this.output, answer));
      this.#pumps.add(pump);
      pump.start(false);
    });
  }
}
