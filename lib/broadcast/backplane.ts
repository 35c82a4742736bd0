/** How broadcast events travel between instances: the contract, and the in-memory backplane of one process. */

/** One published event: its id (unique across instances) and its item. */
export interface BroadcastEvent {
  readonly id: string;
  readonly data: unknown;
}

/** Hands an event of a topic to this instance's subscribers. */
export type Deliver = (topic: string, event: BroadcastEvent) => void;

export interface Backplane {
  /** Put before each instance's event numbers so ids stay unique across instances (empty in memory). */
  readonly idPrefix: string;
  /** Sends the event to every instance, this one included; never throws into the caller. */
  publish(topic: string, event: BroadcastEvent): void;
  /** Begins delivering events (from any instance) to `deliver`. */
  start(deliver: Deliver): void;
  /** Whether events reach the other instances now (for the readiness check). */
  readonly connected: boolean;
  /** Lets go of connections; events are then delivered in this process only. */
  close(): Promise<void>;
}

/** One process: an event published is delivered at once, synchronously, in publishing order. */
export class MemoryBackplane implements Backplane {
  readonly idPrefix = '';
  readonly connected = true;
  #deliver: Deliver = () => undefined;

  start(deliver: Deliver): void {
    this.#deliver = deliver;
  }

  publish(topic: string, event: BroadcastEvent): void {
    this.#deliver(topic, event);
  }

  async close(): Promise<void> {}
}
