// The resolved, immutable configuration: typed framework settings plus raw user keys.
import type { LogLevel } from '../logging/log-level';
import { profilesOf } from './config-sources';
import type { FrameworkConfig, FrameworkKey } from './schema';

/** What a {@link Config} is made of; produced by `resolveConfig`. */
export interface ConfigInit {
  readonly profile: string;
  readonly values: FrameworkConfig;
  /** Every resolved key (framework, per-category and user keys) with its winning value as text. */
  readonly raw: ReadonlyMap<string, string>;
  readonly logCategoryLevels: ReadonlyMap<string, LogLevel>;
  /** Looks up a key not resolved up front (environment, then defaults), for `getUser`. */
  readonly fallback: (name: string) => string | undefined;
}

/**
 * The application's configuration, fixed once loaded. Framework keys come out typed (sizes in bytes,
 * durations in milliseconds); any key can be read as text for build conditions.
 *
 * @example
 * const config = loadConfig({ overrides: { 'framework.http.port': 9000 } });
 * config.get('framework.http.port'); // 9000 (typed number)
 * config.getUser('greeting.name');   // 'world' when application.properties has greeting.name=world
 */
export class Config {
  /** The active profile (`prod` unless set), as `framework.profile` gives it. */
  readonly profile: string;
  /** The profiles it names: `framework.profile` may list several, comma-separated (`dev,test`). */
  readonly profiles: readonly string[];
  readonly #values: FrameworkConfig;
  readonly #raw: ReadonlyMap<string, string>;
  readonly #logCategoryLevels: ReadonlyMap<string, LogLevel>;
  readonly #fallback: (name: string) => string | undefined;

  constructor(init: ConfigInit) {
    this.profile = init.profile;
    this.profiles = Object.freeze(profilesOf(init.profile));
    // Lists are frozen too, so no caller can change what later callers read.
    const values = Object.entries(init.values).map(([key, value]) => [
      key,
      Array.isArray(value) ? Object.freeze([...value]) : value,
    ]);
    this.#values = Object.freeze({ ...init.values, ...Object.fromEntries(values) });
    this.#raw = new Map(init.raw);
    this.#logCategoryLevels = new Map(init.logCategoryLevels);
    this.#fallback = init.fallback;
  }

  /** The typed value of a framework key (its default when unset). */
  get<K extends FrameworkKey>(key: K): FrameworkConfig[K] {
    return this.#values[key];
  }

  /**
   * Any key as text, as `@IfBuildProperty` and `@EndpointDisabled` compare it: the winning value across
   * program, environment and file (profile-aware), else a framework key's default, else `undefined`.
   */
  getUser(name: string): string | undefined {
    return this.#raw.get(name) ?? this.#fallback(name);
  }

  /** The level configured for each log category by `framework.log.category."<name>".level`. */
  logCategoryLevels(): ReadonlyMap<string, LogLevel> {
    return new Map(this.#logCategoryLevels);
  }
}
