/**
 * The header that marks a JSON array answer as a stream of items (a `Multi`, an async iterable or a generator
 * written element by element), so a client can tell it from a single value that happens to be an array. A
 * method's declared return type does not always survive into its metadata (`import { type Multi }` leaves
 * `Object`), so the typed client reads this instead of guessing.
 */
export const STREAM_ITEMS_HEADER = 'stream-items';

/** Its value on a streamed JSON array. */
export const JSON_ARRAY_ITEMS = 'json-array';
