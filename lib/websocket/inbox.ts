/** A socket's received messages of one kind (text or binary), waiting for their method. */
import { Multi } from '../streaming/multi';
import type { MessageCallback } from './socket-handlers';

/**
 * What a waiting message costs beyond its bytes (its Buffer and its queue slot, about 110 bytes measured): counted
 * with them, so a flood of empty messages is paused as one of bytes is.
 */
const MESSAGE_COST = 128;

/** What the method of a kind of message needs of the socket's session. */
export interface MessageTurns {
  readonly isOpen: boolean;
  /** Calls `handler` with `message` and sends its answer; `done` once queued, with whether the socket goes on. */
  call(handler: MessageCallback, message: unknown, stakes: 'goes-on', done: (goOn: boolean) => void): void;
  /** A message that does not decode: `done` with whether the socket goes on. */
  badMessage(error: unknown, done: (goOn: boolean) => void): void;
  /** `bytes` more received bytes wait (fewer, when negative). */
  held(bytes: number): void;
}

/**
 * A method taking each message gets the next once its answers to the last are queued, so answers keep the messages'
 * order; one taking all reads a Multi. Waiting bytes count against the incoming buffer (`held`).
 */
export class Inbox {
  #items: Buffer[] = [];
  #head = 0;
  #ended = false;
  /** Resolves the wait of `#take` (again, a no-op, until the next wait). */
  #waiter: (() => void) | undefined;
  /** A method taking each message is still sending its answers to an earlier one. */
  #busy = false;

  constructor(
    readonly handler: MessageCallback,
    readonly turns: MessageTurns,
  ) {}

  /** A message arrived: a free method taking each message handles it at once, else it waits its turn. */
  receive(data: Buffer): void {
    if (this.#ended) return;
    if (!this.handler.takesAll && !this.#busy && this.#head === this.#items.length) return this.#handle(data);
    this.#items.push(data);
    this.turns.held(data.length + MESSAGE_COST);
    this.#waiter?.();
  }

  /** No more messages come (the socket closed, or reads no more). */
  end(): void {
    this.#ended = true;
    this.#waiter?.();
  }

  /**
   * Every message as a Multi, read once: iterated, it takes the next only when asked (a lagging method pauses the
   * socket); subscribed, each is pushed as it arrives. A message that does not decode is skipped or ends it.
   */
  messages(): Multi<unknown> {
    let taken = false;
    const next = async (): Promise<IteratorResult<unknown>> => {
      for (let data = await this.#take(); data !== undefined; data = await this.#take()) {
        try {
          return { done: false, value: this.handler.decode(data) };
        } catch (error) {
          if (!(await new Promise<boolean>((done) => this.turns.badMessage(error, done)))) break;
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

  /** One message to a method taking each message; one whose answer comes later holds the next ones here. */
  #handle(data: Buffer): void {
    this.#busy = true;
    let later = false;
    const done = (goOn: boolean): void => {
      this.#busy = false;
      if (later && goOn) this.#next();
    };
    let message: unknown;
    try {
      message = this.handler.decode(data);
    } catch (error) {
      this.turns.badMessage(error, done);
      later = true;
      return;
    }
    this.turns.call(this.handler, message, 'goes-on', done);
    later = true;
  }

  /** Handles the messages that waited, while the method is free and the socket open. */
  #next(): void {
    while (!this.#busy && this.turns.isOpen) {
      const data = this.#shift();
      if (data === undefined) return;
      this.#handle(data);
    }
  }

  #shift(): Buffer | undefined {
    const items = this.#items;
    if (this.#head === items.length) return undefined;
    const data = items[this.#head]!;
    items[this.#head++] = undefined as never;
    if (this.#head === items.length) {
      items.length = 0;
      this.#head = 0;
    }
    this.turns.held(-data.length - MESSAGE_COST);
    return data;
  }

  /** The next message, waiting for it; `undefined` once the inbox has ended and holds nothing. */
  async #take(): Promise<Buffer | undefined> {
    while (this.#head === this.#items.length) {
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => (this.#waiter = resolve));
    }
    return this.#shift();
  }
}
