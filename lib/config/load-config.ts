// Loads the configuration from application.properties, the environment and program overrides.
import { maybeNodeBuiltin } from '../runtime/node-builtins';
import type { Config } from './config';
import { ConfigError } from './config-error';
import { parseProperties } from './properties';
import { resolveConfig } from './resolve-config';
import type { RawValue } from './setting-types';

/** Where `loadConfig` looks; every field is optional. */
export interface LoadConfigOptions {
  /** Directory holding `application.properties`; defaults to `process.cwd()`. */
  readonly directory?: string;
  /** A properties file to read instead, resolved against `directory`; it must exist. */
  readonly file?: string;
  /**
   * The text of `application.properties` itself, read instead of any file: for a runtime without a disk (a Worker
   * bundling the file, e.g. with esbuild's `text` loader). Not together with `file`.
   */
  readonly properties?: string;
  /** Forces the profile, above `framework.profile` in every source. */
  readonly profile?: string;
  /** Defaults to `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Program values; they beat the environment and the file. */
  readonly overrides?: Readonly<Record<string, RawValue>>;
}

const DEFAULT_FILE = 'application.properties';

type PropertiesFile = { path: string; entries: Map<string, string> };

/**
 * Loads and validates the configuration: program overrides beat environment variables
 * (`FRAMEWORK_HTTP_PORT`, `_DEV_FRAMEWORK_HTTP_PORT`), which beat `application.properties`; `%<profile>.`
 * keys apply in their profile only and beat the plain key of the same source. A missing
 * `application.properties` is fine; a missing file named by `options.file` is not.
 *
 * @throws ConfigError listing every invalid value and unknown `framework.*` key, with its source.
 * @example
 * const config = loadConfig({ overrides: { 'framework.http.port': 0 } });
 * config.get('framework.http.enable-compression'); // false unless set
 */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const host = (globalThis as { process?: Partial<NodeJS.Process> }).process;
  return resolveConfig({
    profile: options.profile,
    overrides: options.overrides,
    env: options.env ?? host?.env ?? {},
    file: readPropertiesFile(options, host?.cwd?.()),
  });
}

/**
 * The properties given as text, else the properties file where the runtime has a disk (a Worker has none: its
 * configuration is then the environment and the program's overrides).
 */
function readPropertiesFile(options: LoadConfigOptions, cwd: string | undefined): PropertiesFile | undefined {
  if (options.properties !== undefined) {
    if (options.file !== undefined)
      throw fileError(options.file, 'no file beside the `properties` text: give one of the two');
    return parsed('the properties text', options.properties);
  }
  const fs = maybeNodeBuiltin('node:fs');
  const path = maybeNodeBuiltin('node:path');
  const required = options.file !== undefined;
  if (fs === undefined || path === undefined || cwd === undefined) {
    if (!required) return undefined;
    throw fileError(options.file!, 'a file on a disk this runtime has');
  }
  return readFile(fs, path.resolve(options.directory ?? cwd, options.file ?? DEFAULT_FILE), required);
}

function readFile(fs: typeof import('node:fs'), path: string, required: boolean): PropertiesFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    if (!required && isMissing(error)) return undefined;
    throw fileError(path, `a readable file (${String(error)})`);
  }
  return parsed(path, text);
}

function parsed(path: string, text: string): PropertiesFile {
  try {
    return { path, entries: parseProperties(text) };
  } catch (error) {
    throw fileError(path, `valid properties (${String(error)})`);
  }
}

function fileError(path: string, expected: string): ConfigError {
  return new ConfigError([{ key: '(file)', value: path, source: path, expected }]);
}

// Duck-typed: Node's fs errors are not always `instanceof Error` across realms (e.g. under Jest).
function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}
