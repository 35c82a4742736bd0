// Resolves layered raw settings into a validated Config, collecting every problem (with typo suggestions) before failing.
import type { LogLevel } from '../logging/log-level';
import { Config } from './config';
import { ConfigError, type ConfigProblem } from './config-error';
import {
  entriesSource,
  environmentSource,
  lookup,
  profilesOf,
  splitProfiles,
  type ConfigSource,
  type Found,
} from './config-sources';
import { isLogCategoryFamily, logCategoryKey, logCategoryOf } from './log-category-key';
import { FRAMEWORK_KEYS, frameworkSettings, isFrameworkKey, readFrameworkSettings } from './schema';
import { logLevel, type RawValue } from './setting-types';

/** The raw inputs of a configuration, highest precedence first: overrides, environment, file. */
export interface ConfigInputs {
  /** Forces the profile, above every source. */
  readonly profile?: string;
  readonly overrides?: Readonly<Record<string, RawValue>>;
  readonly env?: NodeJS.ProcessEnv;
  /** Parsed properties and the path named in error messages. */
  readonly file?: { readonly path: string; readonly entries: ReadonlyMap<string, string> };
}

const PROGRAM = 'program';
const PROFILE_KEY = 'framework.profile';

/**
 * Builds a {@link Config} from raw inputs without touching the disk; `loadConfig` adds the file and
 * `process.env`. Empty values count as unset (the default applies). Throws one {@link ConfigError} listing
 * every invalid value and every unknown `framework.*` key.
 *
 * @example
 * resolveConfig({ overrides: { 'framework.http.port': 0 } }).get('framework.http.port'); // 0
 */
export function resolveConfig(inputs: ConfigInputs = {}): Config {
  const listed = [entriesSource(Object.entries(inputs.overrides ?? {}), PROGRAM)];
  if (inputs.file) listed.push(entriesSource(inputs.file.entries, inputs.file.path));
  const sources: ConfigSource[] = [listed[0]!, environmentSource(inputs.env ?? {}), ...listed.slice(1)];
  const forced = textOf(inputs.profile);
  const profileFound = forced !== undefined ? { value: forced, source: PROGRAM } : lookup(sources, PROFILE_KEY, '');
  const profile = textOf(profileFound?.value)?.trim() ?? 'prod';

  const raw = new Map<string, string>([[PROFILE_KEY, profile]]);
  const origins = new Map<string, Found>([[PROFILE_KEY, { value: profile, source: profileFound?.source ?? PROGRAM }]]);
  for (const key of activeKeys(sources, profile)) {
    const found = key === PROFILE_KEY ? undefined : lookup(sources, key, profile);
    if (found === undefined) continue;
    raw.set(key, String(found.value));
    if (textOf(found.value) !== undefined) origins.set(key, found);
  }

  const problems = unknownKeys(listed);
  const set = FRAMEWORK_KEYS.filter((key) => origins.has(key));
  const read = readFrameworkSettings(Object.fromEntries(set.map((key) => [key, origins.get(key)!.value])));
  for (const { key, expected } of read.problems)
    problems.push(problemOf(key, origins.get(key) ?? { value: '', source: PROGRAM }, expected));
  const logCategoryLevels = readCategoryLevels(origins, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  const fallback = (name: string): string | undefined =>
    textOf(lookup(sources, name, profile)?.value) ??
    (isFrameworkKey(name) ? frameworkSettings[name].default : undefined);
  return new Config({ profile, values: read.values, raw, logCategoryLevels, fallback });
}

/** The schema keys plus every plain key the sources name, and every key of an active profile. */
function activeKeys(listed: readonly ConfigSource[], profile: string): Set<string> {
  const active = profilesOf(profile);
  const keys = new Set<string>(FRAMEWORK_KEYS);
  for (const source of listed) {
    for (const entry of source.keys()) {
      const split = splitProfiles(entry);
      if (split.profiles.length === 0 || split.profiles.some((name) => active.includes(name))) keys.add(split.key);
    }
  }
  return keys;
}

/** Unknown `framework.*` keys in listed sources, under any profile, so typos surface in every profile. */
function unknownKeys(listed: readonly ConfigSource[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const source of listed) {
    for (const entry of source.keys()) {
      const { key } = splitProfiles(entry);
      if (!key.startsWith('framework.') || isFrameworkKey(key) || logCategoryOf(key) !== undefined) continue;
      problems.push(problemOf(entry, source.read(entry)!, unknownKeyHint(key)));
    }
  }
  return problems;
}

function unknownKeyHint(key: string): string {
  if (isLogCategoryFamily(key)) return `expected a known framework.* key such as ${logCategoryKey('<category>')}`;
  const suggestion = suggestKey(key, FRAMEWORK_KEYS);
  const hint = suggestion === undefined ? '' : `, did you mean "${suggestion}"?`;
  return `expected a known framework.* key${hint}`;
}

function readCategoryLevels(origins: ReadonlyMap<string, Found>, problems: ConfigProblem[]): Map<string, LogLevel> {
  const levels = new Map<string, LogLevel>();
  for (const [key, found] of origins) {
    const category = logCategoryOf(key);
    if (category === undefined) continue;
    const level = logLevel.read(String(found.value).trim());
    if (level !== undefined) levels.set(category, level);
    else problems.push(problemOf(key, found, `expected ${logLevel.expected}`));
  }
  return levels;
}

function problemOf(key: string, found: Found, expected: string): ConfigProblem {
  return { key, value: String(found.value), source: found.source, expected };
}

/** Blank means unset. */
function textOf(value: RawValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  return text.trim() === '' ? undefined : text;
}

/**
 * The candidate closest to `key` by edit distance, if close enough to be a plausible typo (at most a
 * quarter of the key's length, and at least 2 edits allowed); `undefined` otherwise.
 *
 * @example
 * suggestKey('framework.http.prot', ['framework.http.port', 'framework.http.host']); // 'framework.http.port'
 */
export function suggestKey(key: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(2, Math.floor(key.length / 4));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(key, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein, two rolling rows. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
