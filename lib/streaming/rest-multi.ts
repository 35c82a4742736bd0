/** `RestMulti`: a stream result with its own status, headers and buffering (the Java framework's RestMulti). */
import type { Observable } from 'rxjs';
import type { OverflowPolicy } from './backlog';
import { streamBudget } from './stream-budget';

/**
 * Wraps a stream (Observable or async iterable) with the status and headers of its response, its buffer settings,
 * and whether `application/json` frames it as one array (default) or one value per line.
 *
 * @example
 * return RestMulti.fromMulti(multi(of(a, b))).status(222).header('foo', 'bar');
 */
export class RestMulti<T> {
  #status = 200;
  readonly #headers: [string, string][] = [];
  #jsonArray = true;
  #bufferSize: number | undefined;
  #overflow: OverflowPolicy | undefined;

  private constructor(readonly source: Observable<T> | AsyncIterable<T>) {}

  /** Every item of `source` is written (a plain Observable counts as a Multi here). */
  static fromMulti<T>(source: Observable<T> | AsyncIterable<T>): RestMulti<T> {
    return new RestMulti(source);
  }

  status(code: number): this {
    if (!Number.isInteger(code) || code < 200 || code > 599) throw new RangeError(`Invalid stream status ${code}`);
    this.#status = code;
    return this;
  }

  header(name: string, value: string): this {
    this.#headers.push([name, value]);
    return this;
  }

  /** `false`: under `application/json`, one JSON value and `\n` per item instead of one array. */
  encodeAsJsonArray(jsonArray: boolean): this {
    this.#jsonArray = jsonArray;
    return this;
  }

  /**
   * This stream's byte budget (bytes, or text such as `'1M'`; at least 16K, else a RangeError) and overflow policy,
   * over `framework.rest.stream.*`.
   */
  buffer(size: number | string, overflow?: OverflowPolicy): this {
    this.#bufferSize = streamBudget(size);
    this.#overflow = overflow;
    return this;
  }

  get statusCode(): number {
    return this.#status;
  }

  get headers(): readonly (readonly [string, string])[] {
    return this.#headers;
  }

  get jsonArray(): boolean {
    return this.#jsonArray;
  }

  get bufferSize(): number | undefined {
    return this.#bufferSize;
  }

  get overflow(): OverflowPolicy | undefined {
    return this.#overflow;
  }
}
