/** The providers a REST client is given: instantiated, refused when server-only, and bounded by their media types. */
import type { MessageBodyReader, MessageBodyWriter } from '../body/message-body';
import { findClassMeta } from '../metadata/store';
import { CONSTRAINED_TO } from '../providers/constrained-to';

/** A provider registered on a client: an instance, or a class with a no-argument constructor. */
export type ClientProvider<T> = T | (new () => T);

/** A provider `@ConstrainedTo('server')` never runs on a client: registering one is a mistake worth saying. */
export function clientSide<T>(provider: ClientProvider<T>): T {
  const type = typeof provider === 'function' ? provider : (provider as object).constructor;
  if (findClassMeta(type)?.tags.get(CONSTRAINED_TO) === 'server')
    throw new TypeError(`${type.name} is @ConstrainedTo('server'): it cannot be registered on a REST client`);
  return typeof provider === 'function' ? new (provider as new () => T)() : provider;
}

/** Whether `mediaType` fits one of `declared`, with wildcards in type or subtype; nothing declared fits every type. */
function fits(declared: readonly string[] | undefined, mediaType: string): boolean {
  if (!declared?.length) return true;
  const [type, subtype] = mediaType.split(';')[0]!.trim().toLowerCase().split('/');
  return declared.some((range) => {
    const [rangeType, rangeSubtype] = range.split(';')[0]!.trim().toLowerCase().split('/');
    return (rangeType === '*' || rangeType === type) && (rangeSubtype === '*' || rangeSubtype === subtype);
  });
}

/** A reader asked only for its class's `@Consumes` media types, a writer for its `@Produces`, as on the server. */
export function withinMediaTypes(reader: MessageBodyReader): MessageBodyReader;
export function withinMediaTypes(writer: MessageBodyWriter): MessageBodyWriter;
export function withinMediaTypes(
  provider: MessageBodyReader | MessageBodyWriter,
): MessageBodyReader | MessageBodyWriter {
  const meta = findClassMeta((provider as object).constructor);
  if (isReader(provider)) {
    return {
      isReadable: (type, mediaType) => fits(meta?.consumes, mediaType) && provider.isReadable(type, mediaType),
      readFrom: provider.readFrom.bind(provider),
    };
  }
  return {
    isWriteable: (type, mediaType, entity) =>
      fits(meta?.produces, mediaType) && provider.isWriteable(type, mediaType, entity),
    writeTo: provider.writeTo.bind(provider),
  };
}

export function isReader(provider: unknown): provider is MessageBodyReader {
  const { isReadable, readFrom } = provider as Partial<MessageBodyReader>;
  return typeof isReadable === 'function' && typeof readFrom === 'function';
}

export function isWriter(provider: unknown): provider is MessageBodyWriter {
  const { isWriteable, writeTo } = provider as Partial<MessageBodyWriter>;
  return typeof isWriteable === 'function' && typeof writeTo === 'function';
}
