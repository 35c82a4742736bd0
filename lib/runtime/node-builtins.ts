/** Node's built-ins by `process.getBuiltinModule` at first use: importing rxrest loads none, bundlers resolve none. */
import { currentRuntime, runtimeName } from './runtime-name';

/** The built-ins rxrest uses, by the name it loads them with. */
interface Builtins {
  'node:async_hooks': typeof import('node:async_hooks');
  'node:buffer': typeof import('node:buffer');
  // What the runtime hands over is the cluster object itself (the module's default export).
  'node:cluster': typeof import('node:cluster').default;
  'node:crypto': typeof import('node:crypto');
  'node:fs': typeof import('node:fs');
  'node:fs/promises': typeof import('node:fs/promises');
  'node:http': typeof import('node:http');
  'node:http2': typeof import('node:http2');
  'node:https': typeof import('node:https');
  'node:net': typeof import('node:net');
  'node:os': typeof import('node:os');
  'node:path': typeof import('node:path');
  'node:stream': typeof import('node:stream');
  'node:stream/promises': typeof import('node:stream/promises');
  'node:string_decoder': typeof import('node:string_decoder');
  'node:tls': typeof import('node:tls');
  'node:util': typeof import('node:util');
  'node:zlib': typeof import('node:zlib');
}

export type BuiltinName = keyof Builtins;

// What the runtime holds anyway (one object per process, no application state); `null`: a built-in it does not have.
const loaded = new Map<BuiltinName, unknown>();

/** The built-in `name`, or `undefined` where the runtime has none (a Worker without `nodejs_compat`). */
export function maybeNodeBuiltin<K extends BuiltinName>(name: K): Builtins[K] | undefined {
  let found = loaded.get(name);
  if (found === undefined) {
    const host = (globalThis as { process?: { getBuiltinModule?(name: string): unknown } }).process;
    found = host?.getBuiltinModule?.(name) ?? null;
    loaded.set(name, found);
  }
  return (found ?? undefined) as Builtins[K] | undefined;
}

/** The built-in `name`; where the runtime has none, an error naming the runtime and `feature`, which needs it. */
export function nodeBuiltin<K extends BuiltinName>(name: K, feature: string): Builtins[K] {
  const found = maybeNodeBuiltin(name);
  if (found === undefined)
    throw new Error(`${feature} needs Node's ${name}, which ${runtimeName()} does not provide (see docs/runtimes.md)`);
  return found;
}

/** Fails as {@link nodeBuiltin} would at first use, when the runtime lacks one of `names`: for the build step. */
export function needNodeBuiltins(feature: string, ...names: BuiltinName[]): void {
  for (const name of names) nodeBuiltin(name, feature);
}

/**
 * Fails as {@link needNodeBuiltins} does, and on workerd whatever its flags: its node:fs holds only the bundle and a
 * `/tmp` emptied for each request, never the files deployed beside the code.
 */
export function needLocalDisk(feature: string, ...names: BuiltinName[]): void {
  needNodeBuiltins(feature, ...names);
  if (currentRuntime() === 'workerd')
    throw new Error(
      `${feature} needs files on a local disk, which ${runtimeName()} does not have: its node:fs holds only the bundle and a /tmp emptied for each request (see docs/runtimes.md)`,
    );
}

/** Whether `value` is an instance of the built-in `name`'s `className`; `false` where the runtime lacks the module. */
export function isNodeInstance<K extends BuiltinName>(value: unknown, name: K, className: keyof Builtins[K]): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const made = maybeNodeBuiltin(name)?.[className];
  return typeof made === 'function' && value instanceof made;
}

/** Whether `type` (a declared parameter or return type) is Node's `Readable`; node:stream is not loaded to say no. */
export function isNodeReadableClass(type: unknown): boolean {
  return typeof type === 'function' && type.name === 'Readable' && type === maybeNodeBuiltin('node:stream')?.Readable;
}

/** Whether this process is a `node:cluster` worker (never on a runtime without the module). */
export function isClusterWorker(): boolean {
  return maybeNodeBuiltin('node:cluster')?.isWorker === true;
}

/** Whether this process may fork `node:cluster` workers: the first process, on a runtime that has the module. */
export function isClusterPrimary(): boolean {
  return maybeNodeBuiltin('node:cluster')?.isPrimary === true;
}
