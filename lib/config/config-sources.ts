// Where raw settings come from (program overrides, environment, properties file) and how keys map to env names.
import { logCategoryKeysOf } from './log-category-key';
import { attempt, splitList, type RawValue } from './setting-types';

/** A raw value found for a key, and a human-readable name of where it was found. */
export interface Found {
  readonly value: RawValue;
  readonly source: string;
}

/** One layer of configuration; earlier layers win. */
export interface ConfigSource {
  /** The value of exactly this key (profile prefix included), if the source has it. */
  read(key: string): Found | undefined;
  /**
   * Keys this source lists itself. The environment lists only the per-category log levels it sets (their names cannot
   * be guessed); it is asked about every other known key.
   */
  keys(): Iterable<string>;
}

/**
 * The environment variable name of a key, as MicroProfile Config maps it: upper case, every character
 * other than A–Z and 0–9 replaced by `_`.
 *
 * @example
 * envName('framework.http.enable-compression'); // 'FRAMEWORK_HTTP_ENABLE_COMPRESSION'
 * envName('%dev.framework.http.port');          // '_DEV_FRAMEWORK_HTTP_PORT'
 */
export function envName(key: string): string {
  return key.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/**
 * Splits `%dev,test.key` into its profiles and the plain key; `profiles` is empty for a plain key.
 *
 * @example
 * splitProfiles('%dev.framework.http.port'); // { profiles: ['dev'], key: 'framework.http.port' }
 */
export function splitProfiles(key: string): { profiles: readonly string[]; key: string } {
  const match = /^%([^.]+)\.(.+)$/.exec(key);
  if (!match) return { profiles: [], key };
  return { profiles: match[1]!.split(',').map((profile) => profile.trim()), key: match[2]! };
}

/** A source over listed entries; `%a,b.key` entries answer for both `%a.key` and `%b.key`. */
export function entriesSource(entries: Iterable<[string, RawValue]>, source: string): ConfigSource {
  const expanded = new Map<string, RawValue>();
  for (const [key, value] of entries) {
    const split = splitProfiles(key);
    if (split.profiles.length === 0) expanded.set(key, value);
    for (const profile of split.profiles) expanded.set(`%${profile}.${split.key}`, value);
  }
  return {
    read: (key) => (expanded.has(key) ? { value: expanded.get(key)!, source } : undefined),
    keys: () => expanded.keys(),
  };
}

/** The environment, asked by exact key first, then by {@link envName}. */
export function environmentSource(env: NodeJS.ProcessEnv): ConfigSource {
  const copied = attempt(() => ({ ...env }));
  // A runtime that grants variables one by one (Deno's --allow-env=FRAMEWORK_*) refuses the copy: then each variable
  // is read once, when its key is first looked up, and kept (unset when refused too).
  const snapshot = new Map<string, string | undefined>(copied ? Object.entries(copied) : []);
  const readVariable = (name: string) => attempt(() => env[name]);
  const variable = (name: string): string | undefined => {
    if (!copied && !snapshot.has(name)) snapshot.set(name, readVariable(name));
    return snapshot.get(name);
  };
  return {
    read(key) {
      for (const name of [key, envName(key)]) {
        const value = variable(name);
        if (value !== undefined) return { value, source: name };
      }
      return undefined;
    },
    keys: () => logCategoryKeysOf(copied ? Object.keys(copied) : []),
  };
}

/**
 * The winning value of a key across sources: the first source having `%<profile>.key` or `key` wins, and
 * within one source the profile key beats the plain one (a plain key in a higher source still beats a
 * profile key in a lower one, as in SmallRye Config). `profile` may list several, comma-separated: the keys of each
 * apply, a later profile's beating an earlier one's.
 */
export function lookup(sources: readonly ConfigSource[], key: string, profile: string): Found | undefined {
  const profiles = profilesOf(profile).reverse();
  for (const source of sources) {
    for (const name of profiles) {
      const found = source.read(`%${name}.${key}`);
      if (found !== undefined) return found;
    }
    const found = source.read(key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The profiles a `framework.profile` value names: several may be listed, comma-separated.
 *
 * @example
 * profilesOf('dev, test'); // ['dev', 'test']
 */
export const profilesOf: (profile: string) => string[] = splitList;
