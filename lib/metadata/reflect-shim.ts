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

/** Reads `design:*` metadata written by the TypeScript emitter, if any. */
export function readDesignType(
  key: 'design:type' | 'design:paramtypes' | 'design:returntype',
  target: object,
  property?: string | symbol,
): unknown {
  const reflect = Reflect as unknown as ReflectWithMetadata;
  return reflect.getMetadata?.(key, target, property);
}

installReflectMetadata();
