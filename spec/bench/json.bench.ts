/**
 * JSON writing benchmark: the default mapper's `writeValueAsString` against `JSON.stringify`
 * on the same entities, with the output compared, in the two regimes the mapper has — before any `@JsonFormat`
 * exists (it is `JSON.stringify` itself) and after one is declared (a field-aware replacer on every write).
 * Then reading: the guarded parser against `JSON.parse` (json-reading.ts).
 */
import { performance } from 'node:perf_hooks';
import { DefaultJsonMapper, JsonFormat } from '../../lib';
import { FRUITS } from './bench-routes';
import { measureJsonReading, type JsonReadingRow } from './json-reading';

const OPS = 200_000;
const ROUNDS = 5;

class Delivery {
  id = 7;
  fruit = 'Apple';
  day = new Date(Date.UTC(2026, 10, 22));
  at = new Date(Date.UTC(2026, 10, 22, 9, 30));
}

const ENTITIES: readonly { readonly name: string; readonly value: unknown }[] = [
  { name: 'fruit list', value: FRUITS },
  {
    name: 'object with dates',
    value: { id: 7, fruit: 'Apple', at: new Date(Date.UTC(2026, 10, 22, 9, 30)), tags: ['a', 'b'] },
  },
  { name: 'class with @JsonFormat field', value: new Delivery() },
];

/** Nanoseconds per call: the best of `ROUNDS` runs of `OPS` calls, the two writers alternating so drift hits both. */
function nanosPerCall(write: (value: unknown) => string, value: unknown): number {
  let sink = 0;
  for (let i = 0; i < OPS / 10; i++) sink += write(value).length;
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    for (let i = 0; i < OPS; i++) sink += write(value).length;
    best = Math.min(best, ((performance.now() - start) * 1e6) / OPS);
  }
  if (sink < 0) throw new Error('unreachable');
  return best;
}

export interface JsonBenchRow {
  readonly regime: string;
  readonly entity: string;
  readonly mapperNs: number;
  readonly stringifyNs: number;
  readonly ratio: number;
  readonly sameOutput: boolean;
}

function measure(regime: string, mapper: DefaultJsonMapper, entities: typeof ENTITIES): JsonBenchRow[] {
  return entities.map(({ name, value }) => {
    const viaMapper = (entity: unknown) => mapper.writeValueAsString(entity);
    const viaStringify = (entity: unknown) => JSON.stringify(entity);
    const mapperNs = nanosPerCall(viaMapper, value);
    const stringifyNs = nanosPerCall(viaStringify, value);
    return {
      regime,
      entity: name,
      mapperNs,
      stringifyNs,
      ratio: mapperNs / stringifyNs,
      sameOutput: viaMapper(value) === viaStringify(value),
    };
  });
}

/**
 * Rows for `npm run bench -- --only=json`: the mapper's cost as a multiple of `JSON.stringify`, and whether they wrote
 * the same text; then the reading rows.
 */
export function runJsonBench(): (JsonBenchRow | JsonReadingRow)[] {
  const mapper = new DefaultJsonMapper();
  const before = measure('no @JsonFormat declared', mapper, ENTITIES.slice(0, 2));
  // Declared here, at run time, so that the first regime really had none (the switch is process-wide).
  JsonFormat({ pattern: 'yyyy-MM-dd' })(Delivery.prototype, 'day');
  const after = measure('a @JsonFormat declared', mapper, ENTITIES);
  return [...before, ...after, ...measureJsonReading()];
}
