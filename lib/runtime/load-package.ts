/**
 * Loads a package by a name bundlers cannot see: a bundler resolves every require of a written name, lazy or not, so an
 * optional package not installed would fail the bundle of an application that never uses it. Knows nothing of which
 * feature needs which package (`assembly/optional-packages.ts` does).
 */

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
  const load = loader();
  if (!load) throw new Error(`the package ${name} cannot be loaded here: this bundle has no require()`);
  return load(name) as T;
}

/** Whether `name` can be loaded from where rxrest is installed (the application's `node_modules` included). */
export function isInstalled(name: string): boolean {
  try {
    const load = loader();
    return load !== undefined && load.resolve(name) !== '';
  } catch {
    return false;
  }
}
