/**
 * Marks a JSON array answer as a stream of items: a declared return type does not always survive into metadata
 * (`import { type Multi }` leaves `Object`), so the typed client reads this instead of guessing.
 */
export const STREAM_ITEMS_HEADER = 'stream-items';

export const JSON_ARRAY_ITEMS = 'json-array';
