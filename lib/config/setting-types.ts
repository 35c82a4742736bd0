// The kinds of configuration value (integer, size, duration, list...): how each reads its text, the phrase error
// messages use for what it expects, and the table entry that documents a setting.
import { nodeBuiltin } from '../runtime/node-builtins';
import { parseLogLevel, LOG_LEVELS } from '../logging/log-level';
import { parseDuration } from './duration';
import { formatSize, parseSize } from '../http/size';
import { invalidHostEntries, publicOrigin } from '../http/allowed-hosts';

/** Text from a file or the environment, or a typed program override. */
export type RawValue = string | number | boolean;

/** A kind of setting: how its (trimmed) text is read, `undefined` when it is not a valid value, and what valid looks like. */
export interface SettingType<T> {
  readonly read: (text: string) => T | undefined;
  readonly expected: string;
}

export interface SettingDoc {
  /** As a user would write it; absent for optional settings. */
  readonly default?: string;
  readonly description: string;
}

/** The default is parsed like any user value, so `10M` documents and yields 10 485 760. */
export interface Setting<T> {
  readonly type: SettingType<T>;
  readonly default: string | undefined;
  readonly description: string;
}

export type SettingValue<S> = S extends Setting<infer T> ? T : never;

function settingType<T>(expected: string, read: (text: string) => T | undefined): SettingType<T> {
  return { read, expected };
}

/** One entry of the schema: a setting with a default, or an optional one (`undefined` when unset). */
export function setting<T>(type: SettingType<T>, doc: SettingDoc & { default: string }): Setting<T>;
export function setting<T>(type: SettingType<T>, doc: SettingDoc & { optional: true }): Setting<T | undefined>;
export function setting<T>(type: SettingType<T>, doc: SettingDoc & { optional?: true }): Setting<T | undefined> {
  return { type, default: doc.default, description: doc.description };
}

/** The value (unset: the default; optional and unset: `undefined`), or what a valid one looks like. */
export function readSetting<T>(
  entry: Setting<T>,
  raw: RawValue | undefined,
): { readonly value: T } | { readonly expected: string } {
  const text = raw === undefined ? entry.default : String(raw).trim();
  if (text === undefined) return { value: undefined as T };
  const value = entry.type.read(text);
  return value === undefined ? { expected: `expected ${entry.type.expected}` } : { value };
}

export function integer(min: number, max = Number.MAX_SAFE_INTEGER): SettingType<number> {
  const expected =
    max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
  return settingType(expected, (text) => {
    if (!/^[+-]?\d+$/.test(text)) return undefined;
    const value = Number(text);
    return Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
  });
}

export const boolean: SettingType<boolean> = settingType('true or false', (text) => {
  const lower = text.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
});

export const text: SettingType<string> = settingType('a non-empty string', (value) =>
  value === '' ? undefined : value,
);

export const duration: SettingType<number> = settingType(
  'a duration such as 500ms, 15s, 1m, PT1M or a whole number of milliseconds',
  parseDuration,
);

const SIZE_FORMAT = 'a size matching [0-9]+[KkMmGgTtPpEeZzYy]? (bytes, or K, M, G... as powers of 1024)';

/** What `read` gives, or `undefined` when it throws. */
export function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

// The RangeError's wording is replaced by this setting's own `expected`.
const readSize = (value: string): number | undefined => attempt(() => parseSize(value));

export const size: SettingType<number> = settingType(SIZE_FORMAT, readSize);

/** A memory size from `min` to `max` bytes; `why` tells a user who is outside them what the size means. */
export function sizeWithin(min: number, max: number, why: string): SettingType<number> {
  const bound = max === Infinity ? `at least ${formatSize(min)}` : `at most ${formatSize(max)}`;
  return settingType(`a size of ${bound} (bytes, or K, M, G... as powers of 1024): ${why}`, (value) => {
    const bytes = readSize(value);
    return bytes !== undefined && bytes >= min && bytes <= max ? bytes : undefined;
  });
}

/** A count of processes: `auto` (one per CPU this process may use) or an integer of at least 1. */
export const processCount: SettingType<number> = settingType('auto or an integer of at least 1', (value) => {
  if (value.toLowerCase() === 'auto')
    return nodeBuiltin('node:os', 'framework.http.workers=auto').availableParallelism();
  return /^\d+$/.test(value) && Number(value) >= 1 && Number.isSafeInteger(Number(value)) ? Number(value) : undefined;
});

export function oneOf<const T extends string>(values: readonly T[]): SettingType<T> {
  return settingType(`one of ${values.join(', ')}`, (value) => values.find((candidate) => candidate === value));
}

export const logLevel = settingType(`one of ${LOG_LEVELS.join(', ')} (any case)`, parseLogLevel);

export const list: SettingType<readonly string[]> = settingType('a comma-separated list', splitList);

/** A comma-separated list of hosts a server answers for: names, `name:port`, `*.domain`, or `*`. */
export const hostList: SettingType<readonly string[]> = settingType(
  'a comma-separated list of host names, name:port, *.domain or *',
  (value) => {
    const items = splitList(value);
    return invalidHostEntries(items).length === 0 ? items : undefined;
  },
);

/** An http or https URL naming only an origin, read as `scheme://host[:port]`. */
export const origin: SettingType<string> = settingType(
  'an http or https URL without a path, such as https://api.example.com',
  (value) => publicOrigin(value)?.origin,
);

export function listOf<const T extends string>(values: readonly T[]): SettingType<readonly T[]> {
  return settingType(`a comma-separated list of ${values.join(', ')}`, (value) => {
    const items = splitList(value);
    const known = items.flatMap((item) => values.filter((candidate) => candidate === item));
    return known.length === items.length ? known : undefined;
  });
}

export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
