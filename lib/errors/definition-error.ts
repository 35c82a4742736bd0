/** Problems found by the build step, collected and thrown together, each naming its class and method. */
import { messageOf } from './message-of';

/** One problem in the application's definition. */
export interface DefinitionProblem {
  /** `Class#method`, `Class#method(param)` or `Class`. */
  readonly location: string;
  readonly message: string;
}

/** Thrown by `RestApplication.build()` when the application is not valid, listing every problem found. */
export class DefinitionError extends Error {
  readonly problems: readonly DefinitionProblem[];

  constructor(problems: readonly DefinitionProblem[]) {
    super(
      `The application has ${problems.length} definition problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `- ${p.location}: ${p.message}`).join('\n')}`,
    );
    this.name = 'DefinitionError';
    this.problems = problems;
  }
}

/** Collects problems during the build; `throwIfAny` ends the build when there are some. */
export class ProblemCollector {
  readonly #problems: DefinitionProblem[] = [];

  /** Records a problem; the same one found twice at one place (an endpoint joined twice) is reported once. */
  add(location: string, message: string): void {
    if (this.#problems.some((problem) => problem.location === location && problem.message === message)) return;
    this.#problems.push({ location, message });
  }

  /** Runs `fn`, recording what it throws as a problem at `location` (then `undefined`). */
  attempt<T>(location: string, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (error) {
      this.add(location, messageOf(error));
      return undefined;
    }
  }

  throwIfAny(): void {
    if (this.#problems.length) throw new DefinitionError(this.#problems);
  }
}

export function locate(type: Function, method?: string, param?: string | number): string {
  const base = method === undefined ? type.name : `${type.name}#${method}`;
  return param === undefined ? base : `${base}(${typeof param === 'number' ? `parameter ${param}` : param})`;
}
