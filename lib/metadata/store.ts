/** Holds what decorators record about classes, methods, parameters and properties; no logic runs here. */
import './reflect-shim';

/** Any class, abstract or not. */
export type Class<T = unknown> = abstract new (...args: never[]) => T;

/** A typed key for extension data attached to a class, method, parameter or property. */
export interface MetaKey<T> {
  readonly description: string;
  /** Phantom field so keys of different value types do not mix. */
  readonly __type?: T;
}

export function metaKey<T>(description: string): MetaKey<T> {
  return Object.freeze({ description }) as MetaKey<T>;
}

/** A bag of extension data, read through typed keys. */
export class Tags {
  readonly #values = new Map<MetaKey<unknown>, unknown>();

  get<T>(key: MetaKey<T>): T | undefined {
    return this.#values.get(key as MetaKey<unknown>) as T | undefined;
  }

  has(key: MetaKey<unknown>): boolean {
    return this.#values.has(key);
  }

  set<T>(key: MetaKey<T>, value: T): void {
    this.#values.set(key as MetaKey<unknown>, value);
  }

  /** Appends to a list-valued tag, creating it when absent. */
  push<T>(key: MetaKey<T[]>, value: T): void {
    const list = this.get(key);
    if (list) list.push(value);
    else this.set(key, [value]);
  }
}

export type ParamKind = 'path' | 'query' | 'header' | 'cookie' | 'form' | 'matrix' | 'body' | 'context' | 'bean';

export interface ParamMeta {
  readonly index: number;
  kind: ParamKind;
  /** The explicit name given to the decorator; the build step falls back to the parameter's own name. */
  name?: string;
  /** Whether the name is required by the decorator family (`@QueryParam` needs one, `@RestQuery` does not). */
  nameRequired?: boolean;
  readonly tags: Tags;
}

export interface MethodMeta {
  readonly name: string;
  httpMethods: string[];
  path?: string;
  produces?: string[];
  consumes?: string[];
  readonly params: Map<number, ParamMeta>;
  readonly tags: Tags;
}

export interface PropertyMeta {
  readonly name: string;
  readonly params: ParamMeta[];
  readonly tags: Tags;
}

export interface ClassMeta {
  path?: string;
  produces?: string[];
  consumes?: string[];
  readonly methods: Map<string, MethodMeta>;
  readonly properties: Map<string, PropertyMeta>;
  readonly tags: Tags;
}

const classes = new Map<Function, ClassMeta>();

/** Every class that carries an rxrest decorator, in the order the decorators ran. */
export function registeredClasses(): Function[] {
  return [...classes.keys()];
}

function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

export function classMeta(target: Function): ClassMeta {
  return entry(classes, target, () => ({ methods: new Map(), properties: new Map(), tags: new Tags() }));
}

export function findClassMeta(target: Function): ClassMeta | undefined {
  return classes.get(target);
}

export function methodMeta(target: Function, name: string): MethodMeta {
  return entry(classMeta(target).methods, name, () => ({ name, httpMethods: [], params: new Map(), tags: new Tags() }));
}

export function paramMeta(target: Function, method: string, index: number, kind: ParamKind): ParamMeta {
  return entry(methodMeta(target, method).params, index, () => ({ index, kind, tags: new Tags() }));
}

export function propertyMeta(target: Function, name: string): PropertyMeta {
  return entry(classMeta(target).properties, name, () => ({ name, params: [], tags: new Tags() }));
}

/** The class a member decorator was applied to (`target` is the prototype for instance members). */
export function ownerOf(target: object): Function {
  return typeof target === 'function' ? target : (target as { constructor: Function }).constructor;
}

/** Class metadata from the class and its superclasses, nearest first. */
export function classChain(target: Function): ClassMeta[] {
  const chain: ClassMeta[] = [];
  // Past the last class, Function.prototype holds no metadata: Object.prototype ends the walk.
  for (let current: unknown = target; typeof current === 'function'; current = Object.getPrototypeOf(current)) {
    const meta = classes.get(current as Function);
    if (meta) chain.push(meta);
  }
  return chain;
}

/** The decorated properties of a bean class and its superclasses (a subclass's declaration wins), each by its last decorator. */
export function decoratedProperties(type: Function): { name: string; meta: ParamMeta; tags: Tags }[] {
  const seen = new Set<string>();
  const found: { name: string; meta: ParamMeta; tags: Tags }[] = [];
  for (const owner of classChain(type)) {
    for (const property of owner.properties.values()) {
      const meta = property.params[property.params.length - 1];
      if (!meta || seen.has(property.name)) continue;
      seen.add(property.name);
      found.push({ name: property.name, meta, tags: property.tags });
    }
  }
  return found;
}
