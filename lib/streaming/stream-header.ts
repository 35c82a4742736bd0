/** Items that ask for a response header, put in the head when first (all but SSE wait for it), framed as any other. */

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
