/** The SSE events a topic sends: its items with their ids, the end of a resumable stream, and a reset notice. */
import { withStreamHeader } from '../streaming/stream-header';
import { markSseEvent, sseEvent, type SseEvent } from '../streaming/sse-event';

/** One event of a topic as it travels between instances and as history keeps it (see `Outgoing`). */
export interface BroadcastEvent {
  readonly id: string;
  readonly data: unknown;
  readonly event?: string;
  readonly trace?: string;
  readonly bytes?: number;
}

/** The event names that end a topic (a resumable stream that completed, failed or was cancelled). */
const END_EVENTS = new Set(['done', 'error', 'cancelled']);

/** Tells a client reading NDJSON (or any framing but SSE) of a reset, before any item. */
const RESET_HEADER = 'stream-reset';

export function toSseEvent(event: BroadcastEvent): SseEvent {
  return markSseEvent(
    event.event === undefined
      ? { id: event.id, data: event.data }
      : { id: event.id, event: event.event, data: event.data },
  );
}

const shared = new WeakMap<BroadcastEvent, SseEvent>();

/** `toSseEvent` once per event object: history read once and sent to many subscribers is framed once. */
export function sharedSseEvent(event: BroadcastEvent): SseEvent {
  let sse = shared.get(event);
  if (!sse) shared.set(event, (sse = toSseEvent(event)));
  return sse;
}

export function isEnd(event: SseEvent): boolean {
  return event.event !== undefined && END_EVENTS.has(event.event);
}

/** `data`: the oldest id held, or `none`. No id, so a client's `Last-Event-ID` stays what it was. */
export function resetNotice(oldest: string | undefined): SseEvent {
  const held = oldest ?? 'none';
  return withStreamHeader(sseEvent({ event: 'reset', data: held }), RESET_HEADER, held);
}
