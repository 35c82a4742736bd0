// zod types for the kinds of configuration value (integer, size, duration, list...) and their documentation.
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseLogLevel, LOG_LEVELS } from '../logging/log-level';
import { parseDuration } from './duration';
import { formatSize, parseSize } from '../http/size';

/** A raw configuration value: text from a file or the environment, or a typed program override. */
export type RawValue = string | number | boolean;

const rawValue = z.union([z.string(), z.number(), z.boolean()]);

/** A kind of setting: how its text is read, and the phrase error messages use for what it expects. */
export interface SettingType<T> {
  readonly schema: z.ZodType<T, RawValue>;
  readonly expected: string;
}

/** Documentation attached to each schema entry (read back by `describeConfiguration`). */
export interface SettingDoc {
  /** The default in the form a user would write it; absent for optional settings. */
  readonly default?: string;
  readonly description: string;
}

function settingType<T>(expected: string, read: (text: string) => T | undefined): SettingType<T> {
  const schema = rawValue.transform((value, context): T => {
    const result = read(String(value).trim());
    if (result === undefined) {
      context.addIssue({ code: 'custom', message: `expected ${expected}`, input: value });
      return z.NEVER;
    }
    return result;
  });
  return { schema, expected };
}

/**
 * One schema entry: the type, its default (parsed like any user value, so `10M` documents and yields
 * 10 485 760) or none, and the documentation kept as zod metadata.
 */
export function setting<T>(type: SettingType<T>, doc: SettingDoc & { default: string }): z.ZodType<T, RawValue | undefined>;
export function setting<T>(type: SettingType<T>, doc: SettingDoc & { optional: true }): z.ZodType<T | undefined, RawValue | undefined>;
export function setting<T>(type: SettingType<T>, doc: SettingDoc & { optional?: true }): z.ZodType<T | undefined, RawValue | undefined> {
  const meta = { description: doc.description, expected: type.expected, default: doc.default };
  return doc.default === undefined ? type.schema.optional().meta(meta) : type.schema.prefault(doc.default).meta(meta);
}

/** An integer within bounds (inclusive). */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER): SettingType<number> {
  const expected = max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
  return settingType(expected, (text) => {
    if (!/^[+-]?\d+$/.test(text)) return undefined;
    const value = Number(text);
    return Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
  });
}

/** `true` or `false`, case-insensitive. */
export const boolean: SettingType<boolean> = settingType('true or false', (text) => {
  const lower = text.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
});

/** Any non-empty text. */
export const text: SettingType<string> = settingType('a non-empty string', (value) => (value === '' ? undefined : value));

/** A duration, read as milliseconds. */
export const duration: SettingType<number> = settingType(
  'a duration such as 500ms, 15s, 1m, PT1M or a whole number of milliseconds',
  parseDuration,
);

const SIZE_FORMAT = 'a size matching [0-9]+[KkMmGgTtPpEeZzYy]? (bytes, or K, M, G... as powers of 1024)';

function readSize(value: string): number | undefined {
  try {
    return parseSize(value);
  } catch {
    return undefined; // the RangeError's wording is replaced by this setting's own `expected`
  }
}

/** A memory size, read as bytes. */
export const size: SettingType<number> = settingType(SIZE_FORMAT, readSize);

/** A memory size of at least `min` bytes; `why` tells a user who is below it what the size means. */
export function sizeAtLeast(min: number, why: string): SettingType<number> {
  return settingType(`a size of at least ${formatSize(min)} (bytes, or K, M, G... as powers of 1024): ${why}`, (value) => {
    const bytes = readSize(value);
    return bytes !== undefined && bytes >= min ? bytes : undefined;
  });
}

/** A count of processes: `auto` (one per CPU this process may use) or an integer of at least 1. */
export const processCount: SettingType<number> = settingType('auto or an integer of at least 1', (value) => {
  if (value.toLowerCase() === 'auto') return availableParallelism();
  return /^\d+$/.test(value) && Number(value) >= 1 && Number.isSafeInteger(Number(value)) ? Number(value) : undefined;
});

/** One of fixed values, compared exactly. */
export function oneOf<const T extends string>(values: readonly T[]): SettingType<T> {
  return settingType(`one of ${values.join(', ')}`, (value) => values.find((candidate) => candidate === value));
}

/** A log level name, case-insensitive. */
export const logLevel = settingType(`one of ${LOG_LEVELS.join(', ')} (any case)`, parseLogLevel);

/** A comma-separated list of text, items trimmed and empty items dropped. */
export const list: SettingType<readonly string[]> = settingType('a comma-separated list', splitList);

/** A comma-separated list whose every item is one of `values`. */
export function listOf<const T extends string>(values: readonly T[]): SettingType<readonly T[]> {
  return settingType(`a comma-separated list of ${values.join(', ')}`, (value) => {
    const items = splitList(value);
    const known = items.flatMap((item) => values.filter((candidate) => candidate === item));
    return known.length === items.length ? known : undefined;
  });
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
