/**
 * What a socket's close code says of its stream, and the size of a close reason. Which code the server sends when is
 * the table in docs/websockets.md ("Errors and close codes").
 */
import { StreamOverflowError } from '../streaming/backlog';
import type { StreamEnd } from '../streaming/stream-observer';

/** How long a closing socket waits for its last messages to be written before it closes anyway. */
export const CLOSE_FLUSH_MS = 5_000;

/** A close reason is at most 123 bytes (RFC 6455 §5.5: a control frame's payload is 125 bytes, 2 of them the code). */
export function reasonOf(text: string): string {
  if (Buffer.byteLength(text) <= 123) return text;
  let cut = text.slice(0, 120);
  while (Buffer.byteLength(cut) > 120) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/** How the stream of a socket's messages ended, by the code it is closed with (and the error that closed it). */
export function endOf(code: number, error?: unknown): StreamEnd {
  if (code === 1008) return 'expired';
  if (code === 1001) return 'shutdown';
  if (code === 1000 || code >= 3000) return 'complete';
  return error instanceof StreamOverflowError ? 'overflow' : 'error';
}
