/**
 * What the client's notifications and responses do: `notifications/cancelled` cancels a call, a response answers a
 * request of the server (sampling, elicitation); other notifications need nothing of the server.
 */
import { isNotification, isResponse, type JsonRpcMessage } from './json-rpc';
import type { McpSession } from './mcp-session';

/**
 * Takes the notifications and responses of a POST; resolves once what they do is in the store, on its way to the
 * instance it concerns (the client is answered 202 then).
 */
export async function receiveMessages(session: McpSession, messages: readonly JsonRpcMessage[]): Promise<void> {
  const done: Promise<void>[] = [];
  for (const message of messages) {
    if (isResponse(message)) {
      done.push(session.reply(message));
      continue;
    }
    if (!isNotification(message) || message.method !== 'notifications/cancelled') continue;
    const requestId = message.params?.requestId;
    const reason = message.params?.reason;
    if (typeof requestId === 'string' || typeof requestId === 'number')
      done.push(session.cancel(requestId, typeof reason === 'string' ? reason : undefined));
  }
  await Promise.all(done);
}
