/**
 * The media types that mean a stream of items: SSE (`text/event-stream`, WHATWG HTML §9.2), the NDJSON family
 * and JSON text sequences (RFC 7464). Pure functions of a media type's text, as negotiation and framing read it.
 */
import { baseType } from './media-type';

export { baseType };

const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/jsonl', 'application/stream+json']);
/** RFC 7464: a sequence of JSON texts. */
export const JSON_SEQ = 'application/json-seq';

/** True for the media types that always mean a stream of items (SSE and the NDJSON family). */
export function isStreamingType(mediaType: string): boolean {
  return baseType(mediaType) === 'text/event-stream' || isJsonItemType(mediaType);
}

/** True for the types of one JSON text per item: the NDJSON family and RFC 7464 JSON text sequences. */
export function isJsonItemType(mediaType: string): boolean {
  const base = baseType(mediaType);
  return base === JSON_SEQ || NDJSON_TYPES.has(base);
}
