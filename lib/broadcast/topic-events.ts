/** The SSE events a topic sends: its items with their ids, the end of a resumable stream, and a reset notice. */
import { withStreamHeader } from '../streaming/stream-header';
import { markSseEvent, sseEvent, type SseEvent } from '../streaming/sse-event';

/** One event of a topic as it travels between instances and as history keeps it. */
export interface BroadcastEvent {
  readonly id: string;
  readonly data: unknown;
  /** The SSE event name; absent for published items. `done`, `error` and `cancelled` end the topic. */
  readonly event?: string;
  /** The publishing span's context (W3C `traceparent`), when it was traced. */
  readonly trace?: string;
  /** The bytes of its data's JSON, as published (what a history's byte budget counts). */
  readonly bytes?: number;
}

/** The event names that end a topic (a resumable stream that completed, failed or was cancelled). */
const END_EVENTS = new Set(['done', 'error', 'cancelled']);

/** The response header that tells a client reading NDJSON (or any framing but SSE) of a reset, before any item. */
export const RESET_HEADER = 'stream-reset';

/** What a reset notice says when the history holds nothing at all. */
export const NOTHING_HELD = 'none';

export function toSseEvent(event: BroadcastEvent): SseEvent {
  return markSseEvent(
    event.event === undefined
      ? { id: event.id, data: event.data }
      : { id: event.id, event: event.event, data: event.data },
  );
}

const shared = new WeakMap<BroadcastEvent, SseEvent>();

/** `toSseEvent`, made once per event object: history read once and sent to many subscribers is framed once. */
export function sharedSseEvent(event: BroadcastEvent): SseEvent {
  let sse = shared.get(event);
  if (!sse) shared.set(event, (sse = toSseEvent(event)));
  return sse;
}

/** Whether no event of the topic follows this one. */
export function isEnd(event: SseEvent): boolean {
  return event.event !== undefined && END_EVENTS.has(event.event);
}

/**
 * `event: reset`: the events right after the subscriber's last one are no longer held (trimmed, or a history
 * that was lost); `data` is the oldest id still held, or `none`. It has no id, so a client's `Last-Event-ID`
 * stays what it was.
 */
export function resetNotice(oldest: string | undefined): SseEvent {
  const held = oldest ?? NOTHING_HELD;
  return withStreamHeader(sseEvent({ event: 'reset', data: held }), RESET_HEADER, held);
}
