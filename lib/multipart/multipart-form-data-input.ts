/** Every part of a multipart request, by name: the `MultipartFormDataInput` parameter type. */
import type { FileUpload } from './file-upload';
import type { FormValue, ItemSummary } from './form-value';

/**
 * All parts of a `multipart/form-data` request. Declare a parameter of this type (undecorated) to receive it.
 *
 * @example
 * @POST all(input: MultipartFormDataInput) { return input.summaries(); }
 */
export class MultipartFormDataInput {
  readonly #parts: readonly FormValue[];
  #values: Map<string, FormValue[]> | undefined;

  constructor(parts: readonly FormValue[]) {
    this.#parts = parts;
  }

  /** Parts in the order they were sent. */
  get parts(): readonly FormValue[] {
    return this.#parts;
  }

  /** Part name → its values, in the order sent (a `Map`, so names such as `__proto__` are plain keys). */
  getValues(): ReadonlyMap<string, readonly FormValue[]> {
    if (!this.#values) {
      this.#values = new Map();
      for (const part of this.#parts) {
        const list = this.#values.get(part.name);
        if (list) list.push(part);
        else this.#values.set(part.name, [part]);
      }
    }
    return this.#values;
  }

  /** Every file part. */
  files(): FileUpload[] {
    return this.#parts.flatMap((part) => part.toFileUpload() ?? []);
  }

  /** Part name → item summaries, as a JSON-ready object (own properties only, created without a prototype chain lookup). */
  summaries(): Record<string, ItemSummary[]> {
    return Object.fromEntries([...this.getValues()].map(([name, list]) => [name, list.map((part) => part.summary())]));
  }
}
