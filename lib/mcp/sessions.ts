/** One MCP server's sessions; at most `max-sessions` per instance, since an `initialize` costs a stranger nothing. */
import type { Subscription } from 'rxjs';
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import { logging } from '../logging/logger';
import type { McpClientFacts } from './mcp-call';
import { McpSession } from './mcp-session';
import {
  forgetSession,
  loadSession,
  publishSessionEvent,
  watchSession,
  type SessionEvent,
  type SessionState,
} from './session-store';
import { unref } from '../runtime/timers';
import { refusal } from '../rate-limit/limit-answers';

const log = logging.getLogger('rxrest.mcp');

const MAX_TOUCH_EVERY_MS = 300_000;
/** A client refused while every session is busy may retry soon: one of them may end any moment. */
const CAPACITY_RETRY_SECONDS = 5;

export class Sessions {
  readonly #open = new Map<string, McpSession>();
  readonly #loading = new Map<string, Promise<McpSession | undefined>>();
  readonly #watching = new Map<string, Subscription>();
  /** Sessions being stored: counted against the limit, or initialize requests sent together would each find room. */
  #opening = 0;
  /** Sessions set aside to end once the new sessions taking their room are stored (see `#reserveRoom`). */
  readonly #leaving = new Set<McpSession>();
  readonly #timeoutMs: number;
  readonly #maxSessions: number;
  readonly #touchEveryMs: number;
  /** Made after the build. */
  readonly #topics: () => BroadcastTopics;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number, maxSessions: number, topics: () => BroadcastTopics) {
    this.#timeoutMs = timeoutMs;
    this.#maxSessions = maxSessions;
    this.#topics = topics;
    this.#touchEveryMs = Math.min(MAX_TOUCH_EVERY_MS, timeoutMs / 4);
  }

  /** Stored before it is answered (else 503); the session it pushes out ends only then: a refused one ends nothing. */
  async open(facts: Omit<McpClientFacts, 'sessionId'>, principal: string | undefined): Promise<McpSession> {
    const leaving = this.#reserveRoom();
    const id = crypto.randomUUID(); // Visible ASCII, as MCP asks of a session id.
    const open = { facts: { ...facts, sessionId: id }, principal };
    const session = this.#make({ open, subscriptions: new Set(), lastSeen: Date.now(), closed: false });
    this.#opening++;
    try {
      await publishSessionEvent(this.#topics(), id, { t: 'open', ...open });
    } finally {
      this.#opening--;
      if (leaving) this.#leaving.delete(leaving);
    }
    if (leaving) this.#giveWay(leaving, id);
    this.#hold(session, watchSession(this.#topics(), id, this.#listener(session)));
    return session;
  }

  /** `undefined` when there is none (never was, ended, or expired). */
  find(id: string): McpSession | undefined | Promise<McpSession | undefined> {
    const session = this.#open.get(id);
    if (session) return session.idleFor() > this.#timeoutMs ? void this.close(session) : session;
    const loading = this.#loading.get(id) ?? this.#load(id).finally(() => this.#loading.delete(id));
    this.#loading.set(id, loading);
    return loading;
  }

  /** Ends the session on every instance: its running calls are cancelled, its streams end, its history goes. */
  close(session: McpSession): void {
    if (this.#drop(session)) this.#storeEnd(session.id);
  }

  #storeEnd(id: string): void {
    const topics = this.#topics();
    publishSessionEvent(topics, id, { t: 'close' }).then(
      () => forgetSession(topics, id),
      (error: unknown) => log.warn(`MCP session ${id}: its end could not be stored: ${String(error)}`),
    );
  }

  /** Lets go of every session here only (at shutdown: the other instances go on serving them). */
  closeAll(): void {
    for (const session of [...this.#open.values()]) this.#drop(session, true);
  }

  async #load(id: string): Promise<McpSession | undefined> {
    let session: McpSession | undefined;
    const loaded = await loadSession(this.#topics(), id, (event, at) => session && this.#listener(session)(event, at));
    if (!loaded) return undefined;
    try {
      // The idlest session ends for it: its client gets 404 next, as after a timeout.
      const leaving = this.#reserveRoom();
      if (leaving) this.#pushOut(leaving);
    } catch (error) {
      loaded.watching.unsubscribe();
      throw error;
    }
    session = this.#make(loaded.state);
    this.#hold(session, loaded.watching);
    return session.idleFor() > this.#timeoutMs ? void this.close(session) : session;
  }

  /**
   * The idle session to end for a new one at `max-sessions` (undefined while there is room; 503 when all are busy),
   * set aside so that initialize requests stored together each push out another, never one in use.
   */
  #reserveRoom(): McpSession | undefined {
    if (this.#open.size - this.#leaving.size + this.#opening < this.#maxSessions) return undefined;
    const idlest = this.#idlest();
    if (!idlest) throw this.#full();
    this.#leaving.add(idlest);
    return idlest;
  }

  /** The new session `id` is stored: the one set aside ends, or another idle one if it came into use, or `id` (503). */
  #giveWay(leaving: McpSession, id: string): void {
    const idlest = leaving.busy && this.#open.get(leaving.id) === leaving ? this.#idlest() : leaving;
    if (idlest) return this.#pushOut(idlest);
    this.#storeEnd(id);
    throw this.#full();
  }

  /** Of those neither in use nor set aside already. */
  #idlest(): McpSession | undefined {
    const now = Date.now();
    let idlest: McpSession | undefined;
    for (const session of this.#open.values())
      if (!session.busy && !this.#leaving.has(session) && (!idlest || session.idleFor(now) > idlest.idleFor(now)))
        idlest = session;
    return idlest;
  }

  #pushOut(session: McpSession): void {
    log.debug(`MCP session ${session.id} ended to open another (framework.mcp.max-sessions)`);
    this.close(session);
  }

  #full(): Error {
    return refusal(
      503,
      'RXREST_MCP_SESSION_CAPACITY',
      CAPACITY_RETRY_SECONDS,
      `This server holds as many MCP sessions as it may (${this.#maxSessions}), all in use`,
    );
  }

  #make(state: SessionState): McpSession {
    return new McpSession(state, this.#topics(), this.#touchEveryMs);
  }

  #listener(session: McpSession): (event: SessionEvent, at: number) => void {
    return (event, at) => (event.t === 'close' ? this.#drop(session) : session.hear(event, at));
  }

  #hold(session: McpSession, watching: Subscription): void {
    this.#open.set(session.id, session);
    this.#watching.set(session.id, watching);
    this.#sweeper ??= unref(setInterval(() => this.#sweep(), Math.max(50, Math.min(60_000, this.#timeoutMs / 4))));
  }

  /** Ends the session here only; false when it was not held. */
  #drop(session: McpSession, keepCalls = false): boolean {
    if (this.#open.get(session.id) !== session) return false;
    this.#open.delete(session.id);
    // Ended (DELETE, a timeout) while set aside for a new session: its room is made already.
    this.#leaving.delete(session);
    this.#watching.get(session.id)?.unsubscribe();
    this.#watching.delete(session.id);
    session.end(keepCalls);
    if (this.#open.size === 0) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
    return true;
  }

  #sweep(): void {
    const now = Date.now();
    for (const session of [...this.#open.values()]) if (session.idleFor(now) > this.#timeoutMs) this.close(session);
  }
}
