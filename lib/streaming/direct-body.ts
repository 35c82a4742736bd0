/** A response body that writes itself: straight to a Node response when there is one, else as a Web stream. */
import type { ServerResponse } from 'node:http';

/** An entity the write stage does not serialize (streams, files), with its default type and length when known. */
export abstract class DirectBody {
  abstract readonly mediaType: string;
  readonly length: number | undefined = undefined;
  /** Writes the body to `response`, whose status and headers are already out. */
  abstract writeTo(response: ServerResponse): void;
  /** The body as a Web stream, for `fetch` in process and other servers. */
  abstract toWebStream(): ReadableStream<Uint8Array>;
  /** Releases the source when the body will not be written (HEAD, or a failure before writing). */
  abstract cancel(): void;
}
