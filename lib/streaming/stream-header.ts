/**
 * Items that also ask for a response header: when such an item is the first of a stream whose head has not
 * been written yet (every framing but SSE waits for the first item), its header goes into the head, so a
 * client reading NDJSON learns the fact before any item. The item itself is framed like any other.
 */

const HEADER = Symbol.for('rxrest.stream-header');

/** Marks `item` as asking for the header `name: value` when it comes first. */
export function withStreamHeader<T extends object>(item: T, name: string, value: string): T {
  return Object.defineProperty(item, HEADER, { value: [name, value] });
}

/** The header `item` asks for, if any. */
export function streamHeaderOf(item: unknown): readonly [string, string] | undefined {
  return typeof item === 'object' && item !== null
    ? ((item as Record<symbol, readonly [string, string] | undefined>)[HEADER] ?? undefined)
    : undefined;
}
