// The media types of a stream of items: SSE (WHATWG HTML §9.2), the NDJSON family, JSON text sequences (RFC 7464).
import { baseType } from './media-type';

export { baseType };

const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/jsonl', 'application/stream+json']);
export const JSON_SEQ = 'application/json-seq';

/** SSE and the NDJSON family. */
export function isStreamingType(mediaType: string): boolean {
  return baseType(mediaType) === 'text/event-stream' || isJsonItemType(mediaType);
}

/** One JSON text per item. */
export function isJsonItemType(mediaType: string): boolean {
  const base = baseType(mediaType);
  return base === JSON_SEQ || NDJSON_TYPES.has(base);
}
