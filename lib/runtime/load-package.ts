/** Optional packages, by a name bundlers cannot see (an uninstalled one would fail the bundle), or handed in. */

// Process-wide, as the module cache is: a bundle holds one copy of a package, whichever application hands it in.
const handed = new Map<string, unknown>();

/** Makes `packages` (module objects by name, e.g. `{ jose }` from `import * as jose`) what loading them answers. */
export function handPackages(packages: Readonly<Record<string, unknown>>): void {
  for (const [name, module] of Object.entries(packages)) {
    if (typeof module !== 'object' && typeof module !== 'function')
      throw new TypeError(`the package ${name} handed in is not a module object (got ${typeof module})`);
    handed.set(name, module);
  }
}

/** The package handed in for `name` (a package, or a path inside one such as `date-fns/format`). */
function handedIn(name: string): unknown {
  if (handed.size === 0) return undefined;
  const found = handed.get(name);
  if (found !== undefined) return found;
  const parts = name.split('/');
  return handed.get(name.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
}

interface Loader {
  (name: string): unknown;
  resolve(name: string): string;
}

/** The CommonJS loader of this module, where the runtime has one (a Worker's ES module bundle has none). */
function loader(): Loader | undefined {
  // A bundler's stand-in for require() throws when called and has no resolve().
  return typeof require === 'function' && typeof require.resolve === 'function' ? (require as Loader) : undefined;
}

/** Whether packages can be loaded by name here: not in a bundle with no require() (a Worker). */
export function canLoadPackages(): boolean {
  return loader() !== undefined;
}

/** The package `name` (a package or a path inside one), loaded through the runtime's module loader. */
export function loadPackage<T>(name: string): T {
  const given = handedIn(name);
  if (given !== undefined) return given as T;
  const load = loader();
  if (!load) throw new Error(`the package ${name} cannot be loaded here: this bundle has no require()`);
  return load(name) as T;
}

/** Whether `name` was handed in or can be loaded from where rxrest is installed. */
export function isInstalled(name: string): boolean {
  if (handedIn(name) !== undefined) return true;
  try {
    const load = loader();
    return load !== undefined && load.resolve(name) !== '';
  } catch {
    return false;
  }
}
