/** One invalid setting: which key, the value given, where it came from, and what was expected instead. */
export interface ConfigProblem {
  readonly key: string;
  readonly value: string;
  /** A file path, an environment variable name, or `program` for overrides. */
  readonly source: string;
  /** The phrase after the dash, e.g. `expected an integer from 0 to 65535`. */
  readonly expected: string;
}

/**
 * Thrown by `loadConfig` when any setting is invalid or unknown. The message has one line per problem,
 * `key: "value" (from source) — expected ...`, so every mistake is fixed in one round.
 *
 * @example
 * try { loadConfig(); } catch (error) { if (error instanceof ConfigError) console.log(error.problems); }
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    const lines = problems.map((p) => `  ${p.key}: ${JSON.stringify(p.value)} (from ${p.source}) — ${p.expected}`);
    super(`Invalid configuration (${count}):\n${lines.join('\n')}`);
    this.problems = problems;
  }
}

/** The error of one setting whose value, valid alone, cannot work with the rest of the configuration or the disk. */
export function settingError(key: string, value: string, expected: string): ConfigError {
  return new ConfigError([{ key, value, source: 'configuration', expected }]);
}
