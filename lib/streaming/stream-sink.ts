/** Where a stream pump writes: a Node `ServerResponse` or a Web `ReadableStream`, behind one interface. */

/** A byte destination with backpressure, completion, abortion and a close signal from the client. */
export interface StreamSink {
  /**
   * It may be given the very bytes other sinks are (a broadcast tick, encoded once): it never changes, reuses or
   * transfers a chunk. Sinks that cannot promise it get text.
   */
  readonly sharesChunks?: boolean;
  /** Writes a chunk; false when the destination wants no more until `onReady` fires. */
  write(chunk: string | Uint8Array): boolean;
  onReady(callback: () => void): void;
  /** Bytes written but not yet taken by the client's connection. */
  buffered(): number;
  /**
   * Sends the status line and headers now, before any body (an SSE stream with nothing to say yet); absent: there is
   * no head to send early (a Web stream's Response is handed out at once, a socket's handshake is written).
   */
  open?(): void;
  end(): void;
  /** Ends the body abnormally once what was written is out, so the client sees a truncated response; absent: `end`. */
  abort?(): void;
  /** Calls `callback` once, when the client goes away before the end; absent: its owner closes the output itself. */
  onClose?(callback: () => void): void;
  /** Calls `callback` once the connection holds none of the bytes written, after the end; absent: held none then. */
  whenGone?(callback: () => void): void;
}
