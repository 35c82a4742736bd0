// Test helper: a real `ws` client whose messages are queued for the test to take in order, and whose close (code and
// reason) or refused handshake (status and body) is a promise, each with a deadline. The sockets a spec file left
// open are terminated after it: a test that timed out mid-way would otherwise leave them, and the server's end of
// them, running through every later spec file of an in-band run.
import { WebSocket, type ClientOptions } from 'ws';
import { bounded, STEP_MS } from './until';

const open = new Set<WebSocket>();
afterAll(() => {
  for (const socket of open) socket.terminate();
  open.clear();
});

export interface Closed {
  readonly code: number;
  readonly reason: string;
}

export interface TestSocket {
  readonly socket: WebSocket;
  /**
   * Resolves once open; rejects with the status when the server answered the handshake otherwise, or when neither
   * happened within the socket's deadline (15 s unless `openSocket` was given another) of being asked for.
   */
  readonly opened: Promise<void>;
  /** Resolves once closed, with the code and reason; rejects when it has not closed within the socket's deadline. */
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

/** Opens a socket to `url`; `deadlineMs` bounds each wait on its `opened` and `closed`. */
export function openSocket(url: string, options: ClientOptions = {}, deadlineMs = STEP_MS): TestSocket {
  const socket = new WebSocket(url, options);
  open.add(socket);
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
    socket.once('close', (code: number, reason: Buffer) => {
      open.delete(socket);
      resolve({ code, reason: reason.toString() });
    }),
  );
  socket.on('error', () => undefined);
  const next = async (timeoutMs = STEP_MS): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    while (taken >= received.length) {
      if (Date.now() > deadline) throw new Error(`no message within ${timeoutMs} ms (got ${received.length})`);
      // No message comes after the close: waiting on would only keep a timer running past the test.
      if (socket.readyState === WebSocket.CLOSED) throw new Error(`closed before a message (got ${received.length})`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    }
    return received[taken++]!;
  };
  return {
    socket,
    get opened() {
      return bounded(opened, `${url} to open`, deadlineMs);
    },
    get closed() {
      return bounded(closed, `${url} to close`, deadlineMs);
    },
    received,
    next,
  };
}
