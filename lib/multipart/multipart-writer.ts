/** Writes MultipartFormDataOutput and @RestForm container entities as multipart/form-data, files streamed from disk. */
import { nodeBuiltin } from '../runtime/node-builtins';
import { randomHex } from '../runtime/random-hex';
import { formFields, isFormContainer } from './form-container';
import { FileUpload } from './file-upload';
import { MultipartFormDataOutput, type OutputPart, type PartValue } from './multipart-form-data-output';
import { isJsonText } from '../http/media-type';
import { bigintReplacer } from '../json/default-json-mapper';

const nodeFs = () => nodeBuiltin('node:fs', 'multipart output of files');

const encoder = new TextEncoder();

const MULTIPART_FORM_DATA = /^\s*multipart\/form-data\s*(;|$)/i;

/** Asked of every response's media type (this writer is tried before the built-in ones): most fail on the first character. */
function isMultipartType(mediaType: string): boolean {
  const first = mediaType.charCodeAt(0);
  return (first === 0x6d || first === 0x4d || first === 0x20 || first === 0x09) && MULTIPART_FORM_DATA.test(mediaType);
}

/** A quoted-string for Content-Disposition parameters (RFC 7578 §4.2: quotes and line breaks percent-encoded). */
function quoted(value: string): string {
  return `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

/** Header values never carry CR or LF (RFC 9110 §5.5), so a part header cannot inject another part. */
function headerValue(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

function partHead(part: OutputPart, boundary: string): Uint8Array {
  let head = `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(part.name)}`;
  if (part.fileName !== undefined) head += `; filename=${quoted(part.fileName)}`;
  head += `\r\nContent-Type: ${headerValue(part.mediaType)}\r\n`;
  for (const [name, values] of part.headers)
    for (const value of values) head += `${headerValue(name)}: ${headerValue(value)}\r\n`;
  return encoder.encode(`${head}\r\n`);
}

async function* partBody(value: PartValue, mediaType: string): AsyncGenerator<Uint8Array> {
  if (MultipartFormDataOutput.isFile(value)) {
    for await (const chunk of nodeFs().createReadStream(value.path)) yield chunk as Buffer;
  } else if (value instanceof Uint8Array) yield value;
  else if (value instanceof ReadableStream) {
    for await (const chunk of value as unknown as AsyncIterable<Uint8Array>) yield chunk;
  } else if (typeof value === 'string') yield encoder.encode(value);
  else if (isJsonText(mediaType)) yield encoder.encode(JSON.stringify(value, bigintReplacer) ?? 'null');
  else yield encoder.encode(Array.isArray(value) ? `[${value.join(', ')}]` : String(value));
}

async function* multipartBody(output: MultipartFormDataOutput, boundary: string): AsyncGenerator<Uint8Array> {
  for (const part of output.parts) {
    yield partHead(part, boundary);
    yield* partBody(part.value, part.mediaType);
    yield encoder.encode('\r\n');
  }
  yield encoder.encode(`--${boundary}--\r\n`);
}

function defaultPartType(value: unknown): string {
  if (value instanceof FileUpload || value instanceof Uint8Array || value instanceof ReadableStream)
    return 'application/octet-stream';
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return 'application/json';
  return 'text/plain';
}

/** One part per non-null `@RestForm` property, in declaration order. */
export function containerToOutput(entity: object): MultipartFormDataOutput {
  const output = new MultipartFormDataOutput();
  for (const field of formFields(entity.constructor)) {
    const value = (entity as Record<string, unknown>)[field.property];
    if (value === undefined || value === null) continue;
    const mediaType = field.target.partType ?? defaultPartType(value);
    if (value instanceof FileUpload) output.addFile(field.name, value, mediaType);
    else output.addFormData(field.name, value as PartValue, mediaType);
  }
  return output;
}

/** The writer for `multipart/form-data` entities; it sets `Content-Type` with the boundary it writes. */
export const multipartWriter = {
  isWriteable: (entity: unknown, mediaType: string): boolean =>
    isMultipartType(mediaType) &&
    (entity instanceof MultipartFormDataOutput ||
      (typeof entity === 'object' && entity !== null && isFormContainer(entity.constructor))),
  write(
    entity: unknown,
    _mediaType: string,
    target?: { readonly headers: { set(name: string, value: string): unknown } },
  ): ReadableStream<Uint8Array> {
    const output = entity instanceof MultipartFormDataOutput ? entity : containerToOutput(entity as object);
    // 24 random bytes, far from any chance of appearing in the content (RFC 2046 §5.1.1).
    const boundary = `rxrest-${randomHex(24)}`;
    target?.headers.set('content-type', `multipart/form-data;boundary=${boundary}`);
    const chunks = multipartBody(output, boundary);
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
  },
};
