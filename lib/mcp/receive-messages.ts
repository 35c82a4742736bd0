/** What the client's notifications do: `notifications/cancelled` cancels a call; others need nothing of the server. */
import type { JsonRpcMessage } from './json-rpc';
import { isNotification } from './json-rpc';
import type { McpSession } from './mcp-session';

/** Takes the notifications and responses of a POST (a client never waits for an answer to them). */
export function receiveMessages(session: McpSession, messages: readonly JsonRpcMessage[]): void {
  for (const message of messages) {
    if (!isNotification(message) || message.method !== 'notifications/cancelled') continue;
    const requestId = message.params?.requestId;
    const reason = message.params?.reason;
    if (typeof requestId === 'string' || typeof requestId === 'number')
      session.cancel(requestId, typeof reason === 'string' ? reason : undefined);
  }
}
