/** The record of the HAL example: `{id, slug, value}`. */

export class DataRecord {
  constructor(
    readonly id: number,
    public slug: string,
    public value: string,
  ) {}
}

/** What a PUT may change. */
export interface RecordUpdate {
  readonly slug?: unknown;
  readonly value?: unknown;
}
