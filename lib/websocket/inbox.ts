/**
 * A socket's received messages, waiting for their method: past `framework.websocket.incoming-buffer` bytes the
 * socket is paused (TCP then holds the peer back) and resumed once the methods have taken half of them.
 */
import { Multi } from '../streaming/multi';
import type { MessageCallback } from './socket-handlers';

/** Pauses and resumes one socket for all of its inboxes. */
export class FlowControl {
  #bytes = 0;
  #paused = false;
  /** Set at shutdown: the socket reads nothing more. */
  #stopped = false;

  constructor(
    readonly highWater: number,
    readonly socket: { pause(): void; resume(): void },
  ) {}

  get paused(): boolean {
    return this.#paused;
  }

  add(bytes: number): void {
    this.#bytes += bytes;
    if (!this.#paused && this.#bytes > this.highWater) {
      this.#paused = true;
      this.socket.pause();
    }
  }

  remove(bytes: number): void {
    this.#bytes -= bytes;
    if (this.#paused && !this.#stopped && this.#bytes <= this.highWater / 2) {
      this.#paused = false;
      this.socket.resume();
    }
  }

  /** Reads nothing more from the socket. */
  stop(): void {
    this.#stopped = true;
    if (!this.#paused) this.socket.pause();
    this.#paused = true;
  }
}

/** What the method of a kind of message needs of the socket's session. */
export interface MessageTurns {
  /** The socket still takes messages. */
  readonly open: boolean;
  /** Calls `handler` with `message` and sends its answer: true once that is queued, else whether the socket goes on. */
  answer(handler: MessageCallback, message: unknown): true | Promise<boolean>;
  /** A message that does not decode: whether the socket goes on. */
  badMessage(error: unknown): Promise<boolean>;
}

/**
 * The messages of one kind (text or binary) in arrival order, and the turns of the method that takes them: a method
 * taking each message gets the next once its answers to the last are queued, so answers keep the messages' order.
 */
export class Inbox {
  #items: Buffer[] | undefined;
  #head = 0;
  #ended = false;
  #waiter: (() => void) | undefined;
  /** A method taking each message is still sending its answers to an earlier one. */
  #busy = false;

  constructor(
    readonly flow: FlowControl,
    readonly handler: MessageCallback,
    readonly binary: boolean,
    readonly turns: MessageTurns,
  ) {}

  /** A message arrived: a free method taking each message handles it at once, else it waits its turn. */
  receive(data: Buffer): void {
    if (!this.handler.takesAll && !this.#busy && this.#empty) return this.#handle(data);
    if (this.#ended) return;
    (this.#items ??= []).push(data);
    this.flow.add(data.length);
    this.#wake();
  }

  /** No more messages come (the socket closed, or reads no more). */
  end(): void {
    this.#ended = true;
    this.#wake();
  }

  /**
   * Every message as a Multi, for a method that takes them all, read once. Iterated (`for await`, or returned as a
   * pulled answer) it takes the next message only when asked, so a lagging method pauses the socket; subscribed as an
   * Observable, each message is pushed as it arrives. A message that does not decode is skipped or ends it.
   */
  messages(): Multi<unknown> {
    let taken = false;
    const next = async (): Promise<IteratorResult<unknown>> => {
      for (let data = await this.#take(); data !== undefined; data = await this.#take()) {
        try {
          return { done: false, value: this.handler.decode(data) };
        } catch (error) {
          if (!(await this.turns.badMessage(error))) break;
        }
      }
      return { done: true, value: undefined };
    };
    return Multi.from({
      [Symbol.asyncIterator]: () => {
        if (taken)
          throw new Error(
            'The messages of a socket can be read once: subscribe to (or iterate) the Multi once, share() it for several consumers',
          );
        taken = true;
        return { next, return: async () => ({ done: true, value: undefined }) };
      },
    });
  }

  get #empty(): boolean {
    return this.#items === undefined || this.#head === this.#items.length;
  }

  /** One message to a method taking each message; one whose answer comes later holds the next ones here. */
  #handle(data: Buffer): void {
    let message: unknown;
    try {
      message = this.handler.decode(data);
    } catch (error) {
      return this.#wait(this.turns.badMessage(error));
    }
    const answered = this.turns.answer(this.handler, message);
    if (answered !== true) this.#wait(answered);
  }

  /** Holds the messages until `done`; then, unless it says the socket is over, handles those that waited. */
  #wait(done: Promise<boolean>): void {
    this.#busy = true;
    void done.then((goOn) => {
      this.#busy = false;
      for (let data = goOn ? this.#shift() : undefined; data !== undefined && this.turns.open; data = this.#shift()) {
        this.#handle(data);
        if (this.#busy) return;
      }
    });
  }

  /** The next message if one is here, else `undefined`. */
  #shift(): Buffer | undefined {
    const items = this.#items;
    if (items === undefined || this.#head === items.length) return undefined;
    const data = items[this.#head]!;
    items[this.#head++] = undefined as never;
    if (this.#head === items.length) {
      this.#items = undefined;
      this.#head = 0;
    }
    this.flow.remove(data.length);
    return data;
  }

  /** The next message, waiting for it; `undefined` once the inbox has ended and holds nothing. */
  async #take(): Promise<Buffer | undefined> {
    while (this.#empty) {
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => (this.#waiter = resolve));
    }
    return this.#shift();
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }
}
