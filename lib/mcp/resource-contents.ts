/** What a resource method's value becomes in `resources/read`: its `contents`, text or base64 bytes, with URI and type. */

/** One item of `contents`: text or a base64 `blob`, with its URI and media type. */
export type ResourceContents = Readonly<Record<string, unknown>> & { readonly uri: string };

export interface ReadResourceResult {
  readonly contents: readonly ResourceContents[];
}

function isContents(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (typeof (value as { text?: unknown }).text === 'string' || typeof (value as { blob?: unknown }).blob === 'string')
  );
}

function one(uri: string, mimeType: string | undefined, value: unknown): ResourceContents {
  if (typeof value === 'string') return { uri, mimeType: mimeType ?? 'text/plain', text: value };
  if (value instanceof Uint8Array)
    return { uri, mimeType: mimeType ?? 'application/octet-stream', blob: Buffer.from(value).toString('base64') };
  if (isContents(value)) return { uri, ...(mimeType === undefined ? {} : { mimeType }), ...value };
  return { uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(value) };
}

/**
 * A read's result: `{ contents }` as it is; a string as text (`text/plain` unless the resource says); bytes as a
 * base64 blob; a `{ text }` or `{ blob }` object (or a list of them) completed with the URI and type; any other value
 * as its JSON (`application/json`).
 */
export function toReadResult(uri: string, mimeType: string | undefined, value: unknown): ReadResourceResult {
  if (typeof value === 'object' && value !== null && Array.isArray((value as { contents?: unknown }).contents))
    return value as ReadResourceResult;
  if (Array.isArray(value) && value.length > 0 && value.every(isContents))
    return { contents: value.map((item) => one(uri, mimeType, item)) };
  return { contents: [one(uri, mimeType, value)] };
}
