/**
 * The sessions of one MCP server: opened by `initialize`, found by `Mcp-Session-Id`, ended by `DELETE` or after
 * `framework.mcp.session-timeout` of idleness (no request, nothing running, no stream open).
 */
import { randomUUID } from 'node:crypto';
import type { McpClientFacts } from './mcp-call';
import { McpSession } from './mcp-session';

export class Sessions {
  readonly #open = new Map<string, McpSession>();
  readonly #timeoutMs: number;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** Opens a session for a client that initialized; its id is a random UUID (visible ASCII, as MCP asks). */
  open(facts: Omit<McpClientFacts, 'sessionId'>, principal: string | undefined): McpSession {
    const session = new McpSession({ ...facts, sessionId: randomUUID() }, principal);
    this.#open.set(session.id, session);
    // Idle sessions are looked for as often as a quarter of the timeout, at most every minute.
    this.#sweeper ??= setInterval(() => this.#sweep(), Math.max(50, Math.min(60_000, this.#timeoutMs / 4))).unref();
    return session;
  }

  /** The session of this id, `undefined` when there is none (never was, ended, or expired). */
  find(id: string): McpSession | undefined | Promise<McpSession | undefined> {
    const session = this.#open.get(id);
    if (session && session.idleFor() > this.#timeoutMs) return void this.close(session);
    return session;
  }

  /** Ends the session: its running calls are cancelled, its streams end. */
  close(session: McpSession): void {
    if (!this.#open.delete(session.id)) return;
    session.end();
    if (this.#open.size === 0) this.#stopSweeping();
  }

  closeAll(): void {
    for (const session of [...this.#open.values()]) this.close(session);
    this.#stopSweeping();
  }

  #sweep(): void {
    const now = Date.now();
    for (const session of [...this.#open.values()]) if (session.idleFor(now) > this.#timeoutMs) this.close(session);
  }

  #stopSweeping(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }
}
