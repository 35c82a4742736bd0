// The error thrown for an invalid configuration, listing every problem found at once.

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
    super(
      `Invalid configuration (${count}):\n${problems.map((problem) => `  ${describeProblem(problem)}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

/** Formats one problem as a line of a {@link ConfigError} message. */
export function describeProblem(problem: ConfigProblem): string {
  return `${problem.key}: ${JSON.stringify(problem.value)} (from ${problem.source}) — ${problem.expected}`;
}
