/** A WebSocket's framing for the stream engine: each item one message, never joined to the next. */
import type { JsonMapper } from '../json/json-mapper';
import type { Framing } from '../streaming/framing';
import { isSseEvent } from '../streaming/sse-event';

/**
 * Each item is one message: a string as text, bytes as binary, an SSE event (a broadcast topic's) as its data,
 * anything else as JSON text written by `json`; `undefined` (and an event without data) sends nothing. A socket's
 * messages have no media type, start, end or separator; pings keep it alive, not comments.
 *
 * @example
 * new MessageFraming(json).frame({ a: 1 }); // '{"a":1}', sent as a text message
 */
export class MessageFraming implements Framing {
  readonly mediaType = '';
  readonly start = '';
  readonly separator = '';
  readonly end = '';
  readonly errorFrame = undefined;
  readonly keepAlive = false;
  readonly messages = true;

  constructor(readonly json: JsonMapper) {}

  frame(item: unknown): string | Uint8Array | undefined {
    if (item === undefined || typeof item === 'string' || item instanceof Uint8Array) return item;
    if (item instanceof ArrayBuffer) return new Uint8Array(item);
    if (isSseEvent(item)) return this.frame(item.data);
    return this.json.writeValueAsString(item);
  }
}
