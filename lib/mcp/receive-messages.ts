/**
 * What the client's notifications and responses do: `notifications/cancelled` cancels a call, a response answers a
 * request of the server (sampling, elicitation); other notifications need nothing of the server.
 */
import { isNotification, isResponse, type JsonRpcMessage } from './json-rpc';
import type { McpSession } from './mcp-session';

/** Takes the notifications and responses of a POST (a client never waits for an answer to them). */
export function receiveMessages(session: McpSession, messages: readonly JsonRpcMessage[]): void {
  for (const message of messages) {
    if (isResponse(message)) {
      session.reply(message);
      continue;
    }
    if (!isNotification(message) || message.method !== 'notifications/cancelled') continue;
    const requestId = message.params?.requestId;
    const reason = message.params?.reason;
    if (typeof requestId === 'string' || typeof requestId === 'number')
      session.cancel(requestId, typeof reason === 'string' ? reason : undefined);
  }
}
