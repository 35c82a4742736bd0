/** Installs a minimal `Reflect.metadata` so that TypeScript's `emitDecoratorMetadata` output is recorded. */

type MetadataKey = string | symbol;
type Target = object;

interface ReflectWithMetadata {
  metadata?: (key: MetadataKey, value: unknown) => (target: Target, property?: string | symbol) => void;
  getOwnMetadata?: (key: MetadataKey, target: Target, property?: string | symbol) => unknown;
  getMetadata?: (key: MetadataKey, target: Target, property?: string | symbol) => unknown;
  defineMetadata?: (key: MetadataKey, value: unknown, target: Target, property?: string | symbol) => void;
}

const MEMBER = Symbol('rxrest.class-member');
const store = new WeakMap<Target, Map<string | symbol, Map<MetadataKey, unknown>>>();

function slot(
  target: Target,
  property: string | symbol | undefined,
  create: boolean,
): Map<MetadataKey, unknown> | undefined {
  let members = store.get(target);
  if (!members) {
    if (!create) return undefined;
    members = new Map();
    store.set(target, members);
  }
  const key = property ?? MEMBER;
  let values = members.get(key);
  if (!values && create) {
    values = new Map();
    members.set(key, values);
  }
  return values;
}

/**
 * TypeScript's `__metadata` helper only records types when `Reflect.metadata` exists at the moment a
 * class is defined, so this runs as a side effect of importing the decorators. A `reflect-metadata`
 * polyfill loaded earlier is kept as it is.
 */
export function installReflectMetadata(): void {
  const reflect = Reflect as unknown as ReflectWithMetadata;
  if (typeof reflect.metadata === 'function' && typeof reflect.getMetadata === 'function') return;
  reflect.defineMetadata = (key, value, target, property) => {
    slot(target, property, true)!.set(key, value);
  };
  reflect.metadata = (key, value) => (target, property) => reflect.defineMetadata!(key, value, target, property);
  reflect.getOwnMetadata = (key, target, property) => slot(target, property, false)?.get(key);
  reflect.getMetadata = (key, target, property) => {
    for (let current: Target | null = target; current; current = Object.getPrototypeOf(current)) {
      const values = slot(current, property, false);
      if (values?.has(key)) return values.get(key);
    }
    return undefined;
  };
}

/**
 * A type the emitter could name but not reference at run time, read as `Object` whichever emitter wrote it: `tsc`
 * writes `Function` for a class imported with `import { type ... }` (it sees the class, not a value to point at) and
 * for function types, where a file-by-file transpiler (ts-jest's transpile mode, swc) writes `Object`. No parameter,
 * field or result is bound to `Function`; read as it was written it built functions from request text.
 */
function referable(type: unknown): unknown {
  return type === Function ? Object : type;
}

/**
 * Reads `design:*` metadata written by the TypeScript emitter, if any, with the types it could not reference as
 * `Object` (the `design:type` of a method, always `Function`, is not asked for).
 */
export function readDesignType(
  key: 'design:type' | 'design:paramtypes' | 'design:returntype',
  target: object,
  property?: string | symbol,
): unknown {
  const reflect = Reflect as unknown as ReflectWithMetadata;
  const type = reflect.getMetadata?.(key, target, property);
  return Array.isArray(type) ? type.map(referable) : referable(type);
}

installReflectMetadata();
