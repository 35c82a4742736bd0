/** A WebSocket's framing for the stream engine: each item one message, never joined to the next. */
import type { JsonMapper } from '../json/json-mapper';
import { BARE_FRAMING, type Framing } from '../streaming/framing';
import { isSseEvent } from '../streaming/sse-event';

/**
 * Each item is one message: a string as text, bytes as binary, an SSE event (a broadcast topic's) as its data,
 * anything else as JSON text written by `json`; `undefined` (and an event without data) sends nothing.
 */
export function messageFraming(json: JsonMapper): Framing {
  // One event sent to many sockets (a broadcast to a thousand subscribers) is written once, not once per socket.
  const shared = new WeakMap<object, string | Uint8Array | undefined>();
  const frame = (item: unknown): string | Uint8Array | undefined => {
    if (item === undefined || typeof item === 'string' || item instanceof Uint8Array) return item;
    if (item instanceof ArrayBuffer) return new Uint8Array(item);
    if (!isSseEvent(item)) return json.writeValueAsString(item);
    if (!shared.has(item)) shared.set(item, frame(item.data));
    return shared.get(item);
  };
  return { ...BARE_FRAMING, mediaType: '', frame, messages: true };
}
