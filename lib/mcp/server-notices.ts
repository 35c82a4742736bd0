/** What a server tells its clients of its own accord, on a broadcast topic every instance hears (resumable). */
import { filter } from 'rxjs/internal/operators/filter';
import { map } from 'rxjs/internal/operators/map';
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import { Broadcaster } from '../broadcast/broadcaster';
import { MCP_SERVER } from '../decorators/mcp';
import { findClassMeta } from '../metadata/store';
import { multi, type Multi } from '../streaming/multi';
import type { SseEvent } from '../streaming/sse-event';
import { messageEvent } from './call-streams';
import { notificationMessage, type JsonRpcNotification } from './json-rpc';
import type { McpSession } from './mcp-session';

/** In the event ids of a `GET` stream (call streams have UUIDs). */
export const NOTICES_STREAM = 'notices';

/** The lists whose changes a server announces. */
export type McpList = 'tools' | 'resources' | 'prompts';

/** Tells the clients of one MCP server that something changed. Get it with {@link mcpNotifier}. */
export interface McpNotifier {
  /**
   * `notifications/resources/updated`: to every session subscribed to `uri`, on every instance. Resolves with the
   * event's id once the broadcast backend holds it (rejects with 503 when it cannot).
   */
  resourceUpdated(uri: string): Promise<string>;
  /** `notifications/<list>/list_changed`: to every session, on every instance. */
  listChanged(list: McpList): Promise<string>;
}

/** Named by the server's path, the same on every instance. */
export function noticesTopic(path: string): string {
  return `mcp:${path}`;
}

/**
 * The notifier of the `@McpServer` class `server`: usable anywhere in the process (a timer, a queue consumer, a REST
 * method), and heard by the clients of every instance sharing the broadcast backend.
 *
 * @example
 * await mcpNotifier(FileServer).resourceUpdated('file:///reports/today.md');
 */
export function mcpNotifier(server: Function): McpNotifier {
  const declared = findClassMeta(server)?.tags.get(MCP_SERVER);
  if (!declared) throw new TypeError(`${server.name} is not an @McpServer class`);
  const topic = new Broadcaster<JsonRpcNotification>(noticesTopic(declared.path));
  return {
    resourceUpdated: (uri) => topic.publish(notificationMessage('notifications/resources/updated', { uri })),
    listChanged: (list) => topic.publish(notificationMessage(`notifications/${list}/list_changed`, {})),
  };
}

/** A resource's update only for the sessions subscribed to it. */
function concerns(session: McpSession, event: SseEvent): boolean {
  const notice = event.data as JsonRpcNotification | undefined;
  if (event.id === undefined || notice?.method !== 'notifications/resources/updated') return true;
  return session.isSubscribed(String(notice.params?.uri));
}

export function sessionNotices(
  topics: BroadcastTopics,
  path: string,
  session: McpSession,
  lastEventId: string | undefined,
): Multi<SseEvent> {
  return multi(
    new Broadcaster<JsonRpcNotification>(noticesTopic(path), {}, topics).subscribe({ lastEventId }).pipe(
      filter((event) => concerns(session, event)),
      // A reset (notices lost) goes out as it is; the others as messages with the stream's ids.
      map((event) => (event.id === undefined ? event : messageEvent(NOTICES_STREAM, event.id, event.data))),
    ),
  );
}
