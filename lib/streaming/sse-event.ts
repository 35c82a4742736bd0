/** Server-sent events: the event shape and its wire form (HTML Living Standard, "Server-sent events" §9.2). */

/** One event; every field is optional, `data` is serialized by the element type when not a string. */
export interface SseEvent {
  readonly data?: unknown;
  readonly id?: string;
  readonly event?: string;
  /** Reconnection time in milliseconds. */
  readonly retry?: number;
  readonly comment?: string;
}

const EVENT_KEYS = new Set(['data', 'id', 'event', 'retry', 'comment']);
const SSE = Symbol.for('rxrest.sse-event');

/**
 * Creates an event explicitly, so that a plain object with a `data` key is never mistaken for one.
 *
 * @example
 * return multi(of(sseEvent({ id: '1', event: 'greeting', data: 'hello' })));
 */
export function sseEvent(event: SseEvent): SseEvent {
  return markSseEvent({ ...event });
}

/** `sseEvent` of an object made for it and handed over (not copied again): a broadcast makes one per event. */
export function markSseEvent(event: SseEvent): SseEvent {
  return Object.defineProperty(event, SSE, { value: true });
}

export function isSseEvent(value: unknown): value is SseEvent {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SSE] === true;
}

/** True when every key of a plain object is an event field (the loose form `{ data, id }`). */
export function looksLikeSseEvent(value: unknown): value is SseEvent {
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    Object.getPrototypeOf(value) !== Object.prototype
  )
    return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => EVENT_KEYS.has(key)) && ('data' in value || 'comment' in value);
}

// A field value ends at CR, LF or CRLF (§9.2.6), so each line of a value becomes its own field line.
const LINE_BREAK = /\r\n|\r|\n/;
// An id holds no line break, nor NUL (which makes the client ignore it); tested first, as ids rarely have either.
const NOT_IN_ID = /[\r\n\0]/;
const NOT_IN_IDS = /[\r\n\0]/g;

function fieldLines(name: string, value: string): string {
  let out = '';
  for (const line of value.split(LINE_BREAK)) out += `${name}:${line}\n`;
  return out;
}

/**
 * Formats one event as `[:comment\n][id:…\n][event:…\n][retry:…\n]data:…\n\n` (no space after the colon,
 * as the Java framework writes it); `payload` is the already serialized data, `undefined` for none.
 */
export function formatSseEvent(event: SseEvent, payload: string | undefined): string {
  let out = '';
  if (event.comment !== undefined) out += fieldLines('', event.comment);
  if (event.id !== undefined) out += `id:${NOT_IN_ID.test(event.id) ? event.id.replace(NOT_IN_IDS, '') : event.id}\n`;
  if (event.event !== undefined) out += `event:${event.event.replace(/[\r\n]/g, '')}\n`;
  if (event.retry !== undefined && Number.isSafeInteger(event.retry) && event.retry >= 0)
    out += `retry:${event.retry}\n`;
  if (payload !== undefined) return out + formatSseData(payload);
  return out === '' ? '' : `${out}\n`;
}

/** The frame of a plain data item: `data:<line>\n` per line, then a blank line. */
export function formatSseData(payload: string): string {
  return payload.indexOf('\n') < 0 && payload.indexOf('\r') < 0
    ? `data:${payload}\n\n`
    : `${fieldLines('data', payload)}\n`;
}
