// Finds every route whose path template matches a request path, best first (the Java REST specification's request matching); knows nothing of HTTP methods.
import { NO_PARAMS, readParams, type PathTemplate } from './path-template';
import { decodeRoutedValue } from './percent-encoding';
import { SegmentIndex } from './segment-index';

/** One matching template with every value registered on it (e.g. one per HTTP method), in registration order. */
export interface RouteMatch<T> {
  readonly template: PathTemplate;
  readonly values: readonly T[];
  /** Decoded variable values; computed on first read. Nothing inherited (see `readParams`). */
  readonly params: Readonly<Record<string, string>>;
  /**
   * The decoded value of one capture group of the template's regex (see `PathTemplate.captures`), without
   * building {@link params}: what a compiled path-parameter reader asks on every request.
   */
  valueAt(group: number): string | undefined;
}

/** A literal template's match: no variables. */
class LiteralMatch<T> implements RouteMatch<T> {
  readonly params = NO_PARAMS;

  constructor(
    readonly template: PathTemplate,
    readonly values: readonly T[],
  ) {}

  valueAt(): undefined {
    return undefined;
  }
}

interface RouteGroup<T> {
  readonly template: PathTemplate;
  readonly values: T[];
  /** Registration order of the group's first value: the last precedence key. */
  readonly order: number;
}

const NO_MATCHES: readonly never[] = Object.freeze([]);

/**
 * Up to this many templates, a path tries each one's regex (most fail at their first literal character) rather than
 * being scanned for its segments and bucket first, which costs more than a few failed tries.
 */
const FEW_TEMPLATES = 3;

class TemplateMatch<T> implements RouteMatch<T> {
  readonly template: PathTemplate;
  readonly values: readonly T[];
  readonly #match: RegExpExecArray;
  #params: Record<string, string> | undefined;

  constructor(group: RouteGroup<T>, match: RegExpExecArray) {
    this.template = group.template;
    this.values = group.values;
    this.#match = match;
  }

  get params(): Readonly<Record<string, string>> {
    return (this.#params ??= readParams(this.template, this.#match));
  }

  valueAt(group: number): string | undefined {
    const value = this.#match[group];
    return value === undefined ? '' : decodeRoutedValue(value);
  }
}

/**
 * Orders templates as the Java REST specification's request matching does: more literal characters first, then more
 * variables, then more variables with an explicit regex; then earlier registration.
 */
function byPrecedence<T>(a: RouteGroup<T>, b: RouteGroup<T>): number {
  return (
    b.template.literalCharacters - a.template.literalCharacters ||
    b.template.variableCount - a.template.variableCount ||
    b.template.regexVariableCount - a.template.regexVariableCount ||
    a.order - b.order
  );
}

/**
 * A set of path templates, each carrying values (typically one resource method per HTTP method). `add` them all,
 * `freeze` once, then `match` request paths from `parseRequestPath`. `match` returns every matching template so
 * that the caller can pick the first one with an acceptable method, media types (Java REST §3.7.2 step 3) and
 * build an `Allow` header from all of them.
 *
 * @example
 * const router = new Router<string>();
 * router.add(compilePathTemplate('/a/{x}'), 'GET');
 * router.add(compilePathTemplate('/a/b'), 'POST');
 * router.freeze();
 * router.match('/a/b').map((m) => m.values); // [['POST'], ['GET']]
 */
export class Router<T> {
  #groups = new Map<string, RouteGroup<T>>();
  #frozen = false;
  /** Literal paths (with and without a trailing slash) → their complete, precomputed answer. */
  #literalPaths = new Map<string, readonly RouteMatch<T>[]>();
  /** Templated groups, narrowed by one literal segment of the path and its number of segments. */
  #templated: SegmentIndex<RouteGroup<T>> = new SegmentIndex([]);
  /** All the templated groups when they are so few that trying each regex costs less than narrowing them first. */
  #fewTemplated: readonly RouteGroup<T>[] | undefined;

  /** Registers `value` under `template`; templates that differ only in spacing share one group. */
  add(template: PathTemplate, value: T): void {
    if (this.#frozen) throw new Error('Router.add called after freeze()');
    const key = `${template.normalized}\u0000${template.captures.map((capture) => capture.name).join('\u0000')}`;
    const group = this.#groups.get(key);
    if (group === undefined) this.#groups.set(key, { template, values: [value], order: this.#groups.size });
    else group.values.push(value);
  }

  /** Precomputes the indexes; further `add` calls throw. Calling it again does nothing. */
  freeze(): void {
    if (this.#frozen) return;
    this.#frozen = true;
    const groups = [...this.#groups.values()].sort(byPrecedence);
    for (const group of groups) Object.freeze(group.values);
    const templated = groups.filter((group) => !group.template.isLiteral);
    this.#templated = new SegmentIndex(templated);
    if (templated.length <= FEW_TEMPLATES) this.#fewTemplated = templated;
    for (const group of groups) {
      if (!group.template.isLiteral) continue;
      const path = group.template.normalized;
      this.#literalPaths.set(path, answerFor(path, group, templated));
      if (path !== '/') this.#literalPaths.set(`${path}/`, answerFor(`${path}/`, group, templated));
    }
  }

  /**
   * Every route matching `path` (from `parseRequestPath`), best first; an empty array when none does.
   * The arrays are shared between calls: do not modify them.
   */
  match(path: string): readonly RouteMatch<T>[] {
    if (!this.#frozen) throw new Error('Router.match called before freeze()');
    // A literal path's answer, including templates that also match it, was computed by freeze().
    const literal = this.#literalPaths.get(path);
    if (literal !== undefined) return literal;
    // The index only narrows (in precedence order): each candidate's regex decides either way.
    const candidates = this.#fewTemplated ?? this.#templated.candidates(path);
    // Most paths match one template: its answer is a one-element array, made at its size (a pushed-to empty array
    // grows a larger store first).
    let first: RouteMatch<T> | undefined;
    let matches: RouteMatch<T>[] | undefined;
    for (let i = 0; i < candidates.length; i++) {
      const group = candidates[i];
      const match = group.template.regex.exec(path);
      if (match === null) continue;
      const found = new TemplateMatch(group, match);
      if (first === undefined) first = found;
      else (matches ??= [first]).push(found);
    }
    return matches ?? (first === undefined ? NO_MATCHES : [first]);
  }
}

function answerFor<T>(
  path: string,
  literal: RouteGroup<T>,
  templated: readonly RouteGroup<T>[],
): readonly RouteMatch<T>[] {
  const matching = templated.filter((group) => group.template.regex.test(path));
  const answer = [literal, ...matching].sort(byPrecedence).map((group): RouteMatch<T> => {
    if (group === literal) return Object.freeze(new LiteralMatch(group.template, group.values));
    const match = new TemplateMatch(group, group.template.regex.exec(path) as RegExpExecArray);
    void match.params;
    return match;
  });
  return Object.freeze(answer);
}
