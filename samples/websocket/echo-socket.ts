/** `/ws/echo`: every text message comes back; `{"upper": "..."}` comes back as `{"upper": "..."}` upper-cased. */
import { OnTextMessage, WebSocketEndpoint } from '../../lib';

/** The text of an `{"upper": "..."}` message, else `undefined`. */
function upperRequest(message: string): string | undefined {
  if (!message.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(message) as { upper?: unknown };
    return typeof parsed.upper === 'string' ? parsed.upper : undefined;
  } catch {
    return undefined;
  }
}

@WebSocketEndpoint('/ws/echo')
export class EchoSocket {
  /** A string answer goes out as text as it is; an object as JSON text. */
  @OnTextMessage
  echo(message: string): string | { upper: string } {
    const upper = upperRequest(message);
    return upper === undefined ? message : { upper: upper.toUpperCase() };
  }
}
