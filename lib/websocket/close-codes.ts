/**
 * The close codes a socket's server sends, what each says of the socket's stream, and its reason's size.
 *
 * 1000 when a method's Multi of answers completes or `close()` is called; 1001 at shutdown and after the idle timeout;
 * 1002 for broken framing (by `ws`); 1003 for a kind of message the class has no method for; 1007 for a message that
 * does not decode (unless `@OnError` takes it), or text that is not UTF-8 (by `ws`); 1008 when the credential that
 * opened the socket expires, or (by `ws`) a message in more fragments than `framework.websocket.max-message-fragments`;
 * 1009 for a message past `framework.websocket.max-message-size` (by `ws`); 1011 when a method fails (after the
 * exception mappers had their say: their answer is the last message); 1013, with the problem's detail, when it fails
 * with a 503 (the server cannot serve this socket now: a limit reached, a backend away), even when `@OnError`
 * answered it.
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
