/** The application's readers, writers and their interceptors, sorted once at build time. */
import type { EntityWriter, WriteTarget, WrittenBody } from '../body/entity-writers';
import { DEFAULT_PRIORITY, PRIORITY, PROVIDER } from '../decorators/providers';
import { isCompatible, parseMediaType, specificity, type MediaType } from '../http/media-type';
import type { ClassMeta } from '../metadata/store';
import {
  isJsonMapperCustomizer,
  isJsonMapperProducer,
  type JsonMapperCustomizer,
  type JsonMapperProducer,
} from '../json/json-mapper';
import { isParamConverterProvider, type ParamConverterProvider } from '../convert/param-converter';
import type {
  MessageBodyReader,
  MessageBodyWriter,
  ReaderInterceptor,
  ServerMessageBodyWriter,
  WriterInterceptor,
  WriterInterceptorContext,
} from '../body/message-body';

interface ProviderInstance {
  readonly instance: object;
  readonly meta: ClassMeta;
}

interface Ranked<T> {
  readonly value: T;
  readonly types: readonly MediaType[];
  readonly priority: number;
  /** The most specific declared media type: 2 concrete, 1 `type/*`, 0 `*\/*` or none. */
  readonly specificity: number;
}

function has<K extends string>(value: object, ...methods: K[]): boolean {
  return methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function');
}

function rank<T>(value: T, meta: ClassMeta, declared: readonly string[] | undefined): Ranked<T> {
  const types = (declared ?? []).map((text) => parseMediaType(text)).filter((m): m is MediaType => m !== undefined);
  const priority = meta.tags.get(PRIORITY) ?? meta.tags.get(PROVIDER)?.priority ?? DEFAULT_PRIORITY;
  return { value, types, priority, specificity: Math.max(0, ...types.map(specificity)) };
}

function fits(types: readonly MediaType[], mediaType: string): boolean {
  if (types.length === 0) return true;
  const parsed = parseMediaType(mediaType);
  return parsed !== undefined && types.some((type) => isCompatible(parsed, type));
}

function constructorOf(entity: unknown): Function | undefined {
  return typeof entity === 'object' && entity !== null ? entity.constructor : undefined;
}

/** The `@Provider` readers, writers and body interceptors of the application, ready to use. */
export class BodyProviders {
  readonly readers: readonly Ranked<MessageBodyReader>[];
  readonly writers: readonly Ranked<MessageBodyWriter | ServerMessageBodyWriter>[];
  readonly readerInterceptors: readonly ReaderInterceptor[];
  readonly writerInterceptors: readonly WriterInterceptor[];
  /** Each list in the order asked or applied: lower priority first. */
  readonly converters: readonly ParamConverterProvider[];
  readonly jsonCustomizers: readonly JsonMapperCustomizer[];
  readonly jsonProducer: JsonMapperProducer | undefined;

  constructor(providers: readonly ProviderInstance[]) {
    // More specific media types first, then lower priority (the specification's order); registration order on ties.
    const ranked = <T>(is: (instance: object) => boolean, declared?: (meta: ClassMeta) => string[] | undefined) =>
      providers
        .filter(({ instance }) => is(instance))
        .map(({ instance, meta }) => rank(instance as T, meta, declared?.(meta)))
        .sort((a, b) => b.specificity - a.specificity || a.priority - b.priority);
    const values = <T>(is: (instance: object) => boolean) => ranked<T>(is).map((r) => r.value);
    this.readers = ranked<MessageBodyReader>(
      (i) => has(i, 'isReadable', 'readFrom'),
      (meta) => meta.consumes,
    );
    this.writers = ranked<MessageBodyWriter>(
      (i) => has(i, 'isWriteable') && (has(i, 'writeTo') || has(i, 'writeResponse')),
      (meta) => meta.produces,
    );
    this.readerInterceptors = values<ReaderInterceptor>((i) => has(i, 'aroundReadFrom'));
    this.writerInterceptors = values<WriterInterceptor>((i) => has(i, 'aroundWriteTo'));
    this.converters = values<ParamConverterProvider>(isParamConverterProvider);
    this.jsonCustomizers = values<JsonMapperCustomizer>(isJsonMapperCustomizer);
    this.jsonProducer = values<JsonMapperProducer>(isJsonMapperProducer)[0];
  }

  /** The first user reader for a declared type and request media type. */
  findReader(type: unknown, mediaType: string): MessageBodyReader | undefined {
    for (const { value, types } of this.readers)
      if (fits(types, mediaType) && value.isReadable(type, mediaType)) return value;
    return undefined;
  }

  /** Whether some user reader reads `type` for one of its declared media types (`*\/*` when it declares none). */
  readsType(type: unknown): boolean {
    return this.readers.some(({ value, types }) =>
      (types.length ? types.map((t) => `${t.type}/${t.subtype}`) : ['*/*']).some((mediaType) =>
        value.isReadable(type, mediaType),
      ),
    );
  }

  /** User writers (ranked) before the built-ins, all wrapped by the writer interceptors. */
  entityWriters(builtins: readonly EntityWriter[]): EntityWriter[] {
    const all = [...this.writers.map(adaptWriter), ...builtins];
    const interceptors = this.writerInterceptors;
    return interceptors.length ? all.map((writer) => intercepted(writer, interceptors)) : all;
  }
}

function adaptWriter({ value, types }: Ranked<MessageBodyWriter | ServerMessageBodyWriter>): EntityWriter {
  return {
    isWriteable: (entity, mediaType) =>
      fits(types, mediaType) && value.isWriteable(constructorOf(entity), mediaType, entity as never),
    write: (entity, mediaType, target) =>
      'writeResponse' in value && typeof value.writeResponse === 'function'
        ? value.writeResponse(entity as never, { status: target.status, headers: target.headers, mediaType })
        : (value as MessageBodyWriter).writeTo(entity as never, mediaType, target.headers),
  };
}

/** Runs the writer inside every interceptor; the first (lowest priority) is outermost. */
function intercepted(writer: EntityWriter, interceptors: readonly WriterInterceptor[]): EntityWriter {
  return {
    isWriteable: (entity, mediaType) => writer.isWriteable(entity, mediaType),
    write: (entity: unknown, mediaType: string, target: WriteTarget) => {
      let index = 0;
      const context: WriterInterceptorContext = {
        entity,
        mediaType,
        headers: target.headers,
        proceed: async (): Promise<WrittenBody> =>
          index < interceptors.length
            ? interceptors[index++].aroundWriteTo(context)
            : writer.write(context.entity, mediaType, target),
      };
      return context.proceed();
    },
  };
}
