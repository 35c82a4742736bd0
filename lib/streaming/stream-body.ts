/** The entity of a stream response: a primed stream pump, attached to a sink when the response is written. */
import type { ServerResponse } from 'node:http';
import { DirectBody } from './direct-body';
import { NodeSink } from './node-sink';
import type { StreamPump } from './stream-pump';
import { webSink } from './web-sink';

export class StreamBody extends DirectBody {
  readonly #pump: StreamPump;

  constructor(pump: StreamPump) {
    super();
    this.#pump = pump;
  }

  get mediaType(): string {
    return this.#pump.mediaType;
  }

  writeTo(response: ServerResponse): void {
    this.#pump.attach(new NodeSink(response));
  }

  toWebStream(): ReadableStream<Uint8Array> {
    const { stream, sink } = webSink();
    this.#pump.attach(sink);
    return stream;
  }

  cancel(): void {
    this.#pump.cancel();
  }
}
