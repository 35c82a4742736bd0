/** Health checks in MicroProfile Health's shape: a response per check, and the decorators that make a class one. */
import type { Observable } from 'rxjs';

export type HealthStatus = 'UP' | 'DOWN';

/** The kinds of check: is the process alive, may it take traffic, has it finished starting. */
export type { HealthKind } from '../decorators/health';

/**
 * The answer of one check: its name, UP or DOWN, and optional data (`{"name","status","data"?}` on the wire).
 *
 * @example
 * return HealthCheckResponse.named('database').status(pool.ready).withData('connections', pool.size).build();
 */
export class HealthCheckResponse {
  constructor(
    readonly name: string,
    readonly status: HealthStatus,
    readonly data?: Readonly<Record<string, string | number | boolean>>,
  ) {}

  static up(name: string): HealthCheckResponse {
    return new HealthCheckResponse(name, 'UP');
  }

  static down(name: string): HealthCheckResponse {
    return new HealthCheckResponse(name, 'DOWN');
  }

  static named(name: string): HealthCheckResponseBuilder {
    return new HealthCheckResponseBuilder(name);
  }
}

/** Builds a response step by step: `up()`/`down()`/`status(boolean)`, `withData(key, value)`. */
export class HealthCheckResponseBuilder {
  #status: HealthStatus = 'UP';
  readonly #data: Record<string, string | number | boolean> = {};

  constructor(readonly name: string) {}

  up(): this {
    return this.status(true);
  }

  down(): this {
    return this.status(false);
  }

  status(up: boolean): this {
    this.#status = up ? 'UP' : 'DOWN';
    return this;
  }

  withData(key: string, value: string | number | boolean): this {
    this.#data[key] = value;
    return this;
  }

  build(): HealthCheckResponse {
    return new HealthCheckResponse(
      this.name,
      this.#status,
      Object.keys(this.#data).length ? { ...this.#data } : undefined,
    );
  }
}

/** What a health check class implements. */
export interface HealthCheck {
  call(): HealthCheckResponse | Promise<HealthCheckResponse> | Observable<HealthCheckResponse>;
}
