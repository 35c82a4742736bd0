/** What the REST client knows of each endpoint method of a resource class, read once from the server's own metadata. */
import { PARAM_OPTIONS, type ParamOptions } from '../decorators/params';
import { STREAM_ELEMENT_TYPE } from '../decorators/stream-element-type';
import { baseType } from '../http/media-type';
import { isContextClass } from '../metadata/context-classes';
import { isBindableClass } from '../metadata/bindable-class';
import { declaredParameters } from '../metadata/param-names';
import { readDesignType } from '../metadata/reflect-shim';
import { classChain, decoratedProperties, type ClassMeta, type MethodMeta, type ParamKind } from '../metadata/store';
import { Multi } from '../streaming/multi';

/** Where one argument (or one property of a bean argument) goes in the request. */
export interface ClientParam {
  readonly kind: Exclude<ParamKind, 'context'>;
  readonly index: number;
  /** The name on the wire (absent for a body or a bean). */
  readonly name: string | undefined;
  readonly options: ParamOptions;
  /** For a bean argument: its decorated properties, each read from the object passed. */
  readonly properties?: readonly ClientBeanProperty[];
}

export interface ClientBeanProperty {
  readonly property: string;
  readonly param: Omit<ClientParam, 'index'>;
}

export interface ClientEndpoint {
  /** `Class.method`, for error messages. */
  readonly where: string;
  readonly httpMethod: string;
  /** `fruits/{id}`: the class and method paths joined. */
  readonly template: string;
  readonly params: readonly ClientParam[];
  readonly produces: readonly string[];
  readonly consumes: readonly string[];
  /** The declared return type when metadata names a class of its own (the JSON answer is bound to it). */
  readonly bindTo: Function | undefined;
  /** Declared to return a `Multi`, or producing a streaming media type: a JSON array answer is emitted item by item. */
  readonly multi: boolean;
  /**
   * The metadata names no class of the application's own for what the method returns (an interface, an Observable):
   * a JSON array answer the server marks with `Stream-Items` is emitted item by item, one without it is one value.
   */
  readonly untyped: boolean;
  /** `@RestStreamElementType`: the media type of each streamed item (JSON parses every SSE data field). */
  readonly elementType: string | undefined;
  /** The method takes `Last-Event-ID`: the client reconnects a dropped SSE answer from the last id it got. */
  readonly resumable: boolean;
}

export const NDJSON = new Set([
  'application/x-ndjson',
  'application/jsonl',
  'application/json-lines',
  'application/stream+json',
]);

function isStreaming(mediaType: string): boolean {
  const base = baseType(mediaType);
  return base === 'text/event-stream' || base === 'application/json-seq' || NDJSON.has(base);
}

/** A bean's decorated properties as the server reads them (a subclass's declaration wins), nested beans too. */
function beanProperties(type: unknown): ClientBeanProperty[] {
  if (typeof type !== 'function') return [];
  return decoratedProperties(type).flatMap(({ name, meta: { kind, tags, name: wire } }) => {
    if (kind === 'context') return [];
    const options = tags.get(PARAM_OPTIONS) ?? {};
    const nested =
      kind === 'bean' ? beanProperties(options.type ?? readDesignType('design:type', type.prototype, name)) : undefined;
    return [{ property: name, param: { kind, name: wire ?? name, options, properties: nested } }];
  });
}

function describeMethod(type: Function, classMeta: ClassMeta, method: MethodMeta): ClientEndpoint {
  const template = [classMeta.path, method.path]
    .flatMap((path) => path?.split('/') ?? [])
    .filter(Boolean)
    .join('/');
  const variables = new Set(Array.from(template.matchAll(/\{\s*([\w.-]+)\s*(?::[^}]*)?\}/g), (match) => match[1]));
  const { types, names, count } = declaredParameters(type, method);
  const params: ClientParam[] = [];
  for (let index = 0; index < count; index++) {
    const meta = method.params.get(index);
    const options = meta?.tags.get(PARAM_OPTIONS) ?? {};
    const declared = options.type ?? types[index];
    // Undecorated: a context object by type, a template variable by name, else the body (as the server reads it).
    const kind =
      meta?.kind ?? (isContextClass(declared) ? 'context' : variables.has(names[index] ?? '') ? 'path' : 'body');
    if (kind === 'context') continue;
    const name = meta?.name ?? names[index];
    params.push({ kind, index, name, options, properties: kind === 'bean' ? beanProperties(declared) : undefined });
  }
  const returned = readDesignType('design:returntype', type.prototype, method.name);
  const produces = method.produces ?? classMeta.produces ?? [];
  // `Multi` imported as a type leaves no type in the metadata: a method that can answer a stream counts too.
  const isMulti =
    (typeof returned === 'function' && (returned === Multi || returned.prototype instanceof Multi)) ||
    produces.some(isStreaming);
  const bindTo = !isMulti && isBindableClass(returned) ? returned : undefined;
  return {
    where: `${type.name}.${method.name}`,
    httpMethod: method.httpMethods[0]!,
    template,
    params,
    produces,
    consumes: method.consumes ?? classMeta.consumes ?? [],
    bindTo,
    multi: isMulti,
    untyped: !isMulti && bindTo === undefined,
    elementType: method.tags.get(STREAM_ELEMENT_TYPE),
    resumable: params.some((param) => param.kind === 'header' && param.name?.toLowerCase() === 'last-event-id'),
  };
}

/** Every endpoint method of `type` (its own and inherited), by name; a class with none is refused. */
export function clientEndpoints(type: Function): Map<string, ClientEndpoint> {
  const endpoints = new Map<string, ClientEndpoint>();
  const chain = classChain(type);
  // Nearest class first: a subclass's declaration wins over the one it overrides; the class path is the nearest one.
  const classPath = chain.find((meta) => meta.path !== undefined);
  for (const meta of chain) {
    const produces = meta.produces ?? classPath?.produces;
    const classMeta = { ...meta, path: classPath?.path, produces, consumes: meta.consumes ?? classPath?.consumes };
    for (const method of meta.methods.values())
      if (method.httpMethods.length === 1 && !endpoints.has(method.name))
        endpoints.set(method.name, describeMethod(type, classMeta, method));
  }
  if (endpoints.size === 0)
    throw new TypeError(`${type.name} has no endpoint methods (@GET, @POST...): it cannot be a REST client's contract`);
  return endpoints;
}
