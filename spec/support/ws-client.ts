// Test helper: a real `ws` client whose messages are queued for the test to take in order, and whose close (code and
// reason) or refused handshake (status and body) is a promise.
import { WebSocket, type ClientOptions } from 'ws';

export interface Closed {
  readonly code: number;
  readonly reason: string;
}

export interface TestSocket {
  readonly socket: WebSocket;
  /** Resolves once open; rejects with the status when the server answered the handshake otherwise. */
  readonly opened: Promise<void>;
  readonly closed: Promise<Closed>;
  /** Every message received so far, text as strings. */
  readonly received: string[];
  /** The next message not taken yet, waiting for it (up to `timeoutMs`). */
  next(timeoutMs?: number): Promise<string>;
}

/** A refused handshake: the status and body the server answered instead of 101. */
export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string | string[] | undefined>,
    readonly body: string,
  ) {
    super(`handshake answered ${status}`);
  }
}

export function openSocket(url: string, options: ClientOptions = {}): TestSocket {
  const socket = new WebSocket(url, options);
  const received: string[] = [];
  let taken = 0;
  let wake: (() => void) | undefined;
  socket.on('message', (data: Buffer, binary: boolean) => {
    received.push(binary ? `bytes:${data.toString('hex')}` : data.toString());
    wake?.();
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => reject(new Refused(response.statusCode ?? 0, response.headers, body)));
    });
    socket.once('error', reject);
  });
  opened.catch(() => undefined);
  const closed = new Promise<Closed>((resolve) =>
    socket.once('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })),
  );
  socket.on('error', () => undefined);
  const next = async (timeoutMs = 15_000): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    while (taken >= received.length) {
      if (Date.now() > deadline) throw new Error(`no message within ${timeoutMs} ms (got ${received.length})`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    }
    return received[taken++]!;
  };
  return { socket, opened, closed, received, next };
}
