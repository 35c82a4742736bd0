/**
 * Refused credentials counted against the client's address: past the budget, every request of that address with a
 * credential answers 429 until the window ends, before its credential is checked (a right guess gains nothing, a forged
 * token costs no signature check). The count is the rate limits'; who is held back is learnt per process from it.
 */
import type { RateLimiterRes } from 'rate-limiter-flexible';
import type { RequestContext } from '../context/request-context';
import type { RefusalCounter } from '../security/security-stage';
import { clientAddressOf, type ProxySettings } from './client-address';
import { policyOf, secondsUntil, tooMany, type Policy } from './limit-answers';

/** Past this many addresses held back, those whose window ended (else the oldest) are let go. */
const PRUNE_AT = 10_000;

export interface FailureBudget {
  readonly budget: number;
  readonly windowSeconds: number;
  readonly proxy: ProxySettings;
}

export class FailedAuthentications implements RefusalCounter {
  readonly #consume: (key: string) => Promise<RateLimiterRes>;
  readonly #settings: FailureBudget;
  readonly #policy: Policy;
  readonly #detail: string;
  /** When (epoch ms) each address held back may come back. */
  readonly #held = new Map<string, number>();

  constructor(consume: (key: string) => Promise<RateLimiterRes>, settings: FailureBudget) {
    this.#consume = consume;
    this.#settings = settings;
    this.#policy = policyOf('failed-authentications', settings.budget, settings.windowSeconds);
    this.#detail = `Too many refused credentials from this address: at most ${settings.budget} per ${settings.windowSeconds} s`;
  }

  check(ctx: RequestContext): Error | undefined {
    if (this.#held.size === 0) return undefined;
    const address = clientAddressOf(ctx, this.#settings.proxy);
    const until = address === undefined ? undefined : this.#held.get(address);
    if (until === undefined) return undefined;
    const left = until - Date.now();
    if (left > 0) return tooMany(this.#policy, secondsUntil(left), this.#detail);
    this.#held.delete(address!);
    return undefined;
  }

  count(ctx: RequestContext): Promise<Error | undefined> {
    // In process there is no address: nothing to count against.
    const address = clientAddressOf(ctx, this.#settings.proxy);
    if (address === undefined) return Promise.resolve(undefined);
    return this.#consume(address).then(
      () => undefined,
      (spent: unknown) => {
        // A store that fails (Redis without its memory fallback) holds nobody back.
        if (spent instanceof Error) return undefined;
        const left = (spent as RateLimiterRes).msBeforeNext;
        this.#hold(address, Date.now() + left);
        return tooMany(this.#policy, secondsUntil(left), this.#detail);
      },
    );
  }

  #hold(address: string, until: number): void {
    if (this.#held.size >= PRUNE_AT) {
      const now = Date.now();
      for (const [held, end] of this.#held) if (end <= now) this.#held.delete(held);
      // Still full (a client with many addresses): the oldest go. The count still refuses them at their next refusal.
      for (const held of this.#held.keys()) {
        if (this.#held.size < PRUNE_AT) break;
        this.#held.delete(held);
      }
    }
    this.#held.set(address, until);
  }
}
