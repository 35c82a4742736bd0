/** Installs a minimal `Reflect.metadata` so that TypeScript's `emitDecoratorMetadata` output is recorded. */

type MetadataKey = string | symbol;

interface ReflectWithMetadata {
  metadata?: (key: MetadataKey, value: unknown) => (target: object, property?: string | symbol) => void;
  getOwnMetadata?: (key: MetadataKey, target: object, property?: string | symbol) => unknown;
  getMetadata?: (key: MetadataKey, target: object, property?: string | symbol) => unknown;
  defineMetadata?: (key: MetadataKey, value: unknown, target: object, property?: string | symbol) => void;
}

const MEMBER = Symbol('rxrest.class-member');
const store = new WeakMap<object, Map<string | symbol, Map<MetadataKey, unknown>>>();

function slot(target: object, property: string | symbol | undefined): Map<MetadataKey, unknown> | undefined {
  return store.get(target)?.get(property ?? MEMBER);
}

/** Runs on import: TypeScript's `__metadata` records types only if `Reflect.metadata` exists as a class is defined. */
export function installReflectMetadata(): void {
  const reflect = Reflect as unknown as ReflectWithMetadata;
  if (typeof reflect.metadata === 'function' && typeof reflect.getMetadata === 'function') return;
  reflect.defineMetadata = (key, value, target, property) => {
    let members = store.get(target);
    if (!members) store.set(target, (members = new Map()));
    let values = members.get(property ?? MEMBER);
    if (!values) members.set(property ?? MEMBER, (values = new Map()));
    values.set(key, value);
  };
  reflect.metadata = (key, value) => (target, property) => reflect.defineMetadata!(key, value, target, property);
  reflect.getOwnMetadata = (key, target, property) => slot(target, property)?.get(key);
  reflect.getMetadata = (key, target, property) => {
    for (let current: object | null = target; current; current = Object.getPrototypeOf(current)) {
      const values = slot(current, property);
      if (values?.has(key)) return values.get(key);
    }
    return undefined;
  };
}

/**
 * `tsc` writes `Function` for a class imported with `import { type ... }` and for function types, where a file-by-file
 * transpiler writes `Object`: read as `Object` either way (bound to `Function`, it built functions from request text).
 */
function referable(type: unknown): unknown {
  return type === Function ? Object : type;
}

/** The `design:type` of a method, always `Function`, is not asked for. */
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
