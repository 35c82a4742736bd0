/** One timer for many connections (SSE keep-alive comments, WebSocket pings), instead of one timer each. */
import { interval } from 'rxjs/internal/observable/interval';
import type { Subscription } from 'rxjs';

/** What beats: told at every tick while it is a member. */
export interface Beating {
  beat(): void;
}

/** Ticks every `periodMs` while it has members; an RxJS timer, so that marble tests can drive it. */
export class Heartbeat {
  readonly #members = new Set<Beating>();
  #timer: Subscription | undefined;

  constructor(readonly periodMs: number) {}

  join(member: Beating): void {
    this.#members.add(member);
    this.#timer ??= interval(this.periodMs).subscribe(() => {
      for (const beating of this.#members) beating.beat();
    });
  }

  leave(member: Beating): void {
    if (!this.#members.delete(member) || this.#members.size > 0) return;
    this.#timer?.unsubscribe();
    this.#timer = undefined;
  }
}
