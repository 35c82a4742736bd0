/** The sessions of one MCP server: opened by `initialize`, found by `Mcp-Session-Id`, ended by `DELETE`. */
import { randomUUID } from 'node:crypto';
import type { McpClientFacts } from './mcp-call';
import { McpSession } from './mcp-session';

export class Sessions {
  readonly #open = new Map<string, McpSession>();

  /** Opens a session for a client that initialized; its id is a random UUID (visible ASCII, as MCP asks). */
  open(facts: Omit<McpClientFacts, 'sessionId'>, principal: string | undefined): McpSession {
    const session = new McpSession({ ...facts, sessionId: randomUUID() }, principal);
    this.#open.set(session.id, session);
    return session;
  }

  /** The session of this id, `undefined` when there is none (never was, ended, or expired). */
  find(id: string): McpSession | undefined | Promise<McpSession | undefined> {
    return this.#open.get(id);
  }

  /** Ends the session: its running calls are cancelled. */
  close(session: McpSession): void {
    if (!this.#open.delete(session.id)) return;
    for (const call of [...session.calls.values()]) call.cancel('session ended');
  }

  closeAll(): void {
    for (const session of [...this.#open.values()]) this.close(session);
  }
}
