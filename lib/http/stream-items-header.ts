/** A streamed JSON array says so: `import { type Multi }` leaves `Object` in metadata, so clients cannot tell. */
export const STREAM_ITEMS_HEADER = 'stream-items';

export const JSON_ARRAY_ITEMS = 'json-array';
