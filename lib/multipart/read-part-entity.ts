/**
 * Reads an entity part (`@PartType`, or an object-typed `@RestForm`): a `@Provider` reader first, then the built-ins.
 * It does not know how parts were parsed.
 */
import { nodeBuiltin } from '../runtime/node-builtins';
import { rawBodyReader } from '../body/builtin-readers';
import { classSchema } from '../json/bind-class';
import { isUnknownDesignType, resolveType, type Converter } from '../convert/convert';
import type { BodySettings } from './body-settings';
import type { RequestContext } from '../context/request-context';
import type { EntityInput } from '../body/message-body';
import type { FormValue } from './multipart-form-data-input';
import { problemDetails } from '../errors/problem-details';
import { BadRequestException } from '../errors/web-application-exception';
import type { PartTarget } from './part-target';
import { isJsonText } from '../http/media-type';

const nodeFs = () => nodeBuiltin('node:fs', 'multipart forms');
const nodeFsPromises = () => nodeBuiltin('node:fs/promises', 'multipart forms');
const nodeStream = () => nodeBuiltin('node:stream', 'multipart forms');

export type PartEntityReader = (ctx: RequestContext, part: FormValue) => Promise<unknown>;

/** A file part is streamed, never read whole, for `stream()`. */
function partInput(part: FormValue): EntityInput {
  const file = part.fileItem;
  return {
    bytes: async () => (file ? nodeFsPromises().readFile(file.path) : Buffer.from(part.value)),
    text: async () => (file ? nodeFsPromises().readFile(file.path, 'utf8') : part.value),
    stream: () =>
      nodeStream().Readable.toWeb(
        file ? nodeFs().createReadStream(file.path) : nodeStream().Readable.from([Buffer.from(part.value)]),
      ) as unknown as ReadableStream<Uint8Array>,
  };
}

/** A header name `Headers` refuses is left out rather than failing the part. */
function partHeaders(part: FormValue): Headers {
  const headers = new Headers();
  for (const [name, values] of Object.entries(part.headers)) {
    for (const value of values) {
      try {
        headers.append(name, value);
      } catch {
        // Not a valid field name (RFC 9110 §5.1): readers never need it.
      }
    }
  }
  return headers;
}

/** Its `@PartType`, else its own; `text/plain` is the default (RFC 7578 §4.4), so an object type then means JSON. */
function mediaTypeOf(part: FormValue, target: PartTarget, objectTarget: boolean): string {
  if (target.partType) return target.partType;
  return objectTarget && /^\s*text\/plain\s*(;|$)/i.test(part.contentType) ? 'application/json' : part.contentType;
}

/** The built-in readers, compiled once. */
function builtinRead(
  target: PartTarget,
  settings: BodySettings,
): (ctx: RequestContext, part: FormValue, mediaType: string) => Promise<unknown> {
  const element = target.element;
  const mapper = settings.json;
  const jsonType = isUnknownDesignType(element) ? undefined : element;
  const schema = classSchema(element);
  const raw = rawBodyReader(element);
  const convert: Converter | undefined = resolveType(undefined, element, { providers: settings.converters })?.convert;
  return async (ctx, part, mediaType) => {
    if (raw) return raw.read({ input: partInput(part), ctx, mediaType });
    const input = partInput(part);
    if (isJsonText(mediaType)) {
      const text = await input.text();
      if (!schema) return mapper.readValue(text, jsonType);
      return mapper.readValue(JSON.stringify(schema.parse(mapper.readValue(text))), jsonType);
    }
    if (/^\s*text\//i.test(mediaType) && convert) return convert(await input.text());
    throw new Error(`no reader reads ${mediaType} into ${typeof element === 'function' ? element.name : 'this type'}`);
  };
}

export function compilePartEntityReader(target: PartTarget, settings: BodySettings): PartEntityReader {
  const element = target.element;
  const objectTarget =
    typeof element === 'function' && !isUnknownDesignType(element) && rawBodyReader(element) === undefined;
  const builtin = builtinRead(target, settings);
  const { providers } = settings;
  return async (ctx, part) => {
    const mediaType = mediaTypeOf(part, target, objectTarget);
    try {
      const user = providers.findReader(element, mediaType);
      if (user) return await user.readFrom(element, mediaType, partHeaders(part), partInput(part));
      return await builtin(ctx, part, mediaType);
    } catch (error) {
      throw new MultipartPartReadingException(part.name, error);
    }
  };
}

/**
 * A multipart part could not be read as its declared type; unmapped it answers a 400 problem.
 *
 * @example
 * @ServerExceptionMapper() onPart(e: MultipartPartReadingException) { return RestResponse.status(422); }
 */
export class MultipartPartReadingException extends BadRequestException {
  constructor(
    readonly partName: string,
    cause?: unknown,
  ) {
    const detail = `The part "${partName}" could not be read`;
    super(detail, {
      cause,
      problem: problemDetails('RXREST_PART_UNREADABLE', detail, [
        { in: 'part', field: partName, message: cause instanceof Error ? cause.message : 'unreadable' },
      ]),
    });
    this.name = 'MultipartPartReadingException';
  }
}
