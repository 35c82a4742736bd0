// Every route matching a request path, best first (the Java REST specification's matching); knows no HTTP methods.
import { NO_PARAMS, readParams, type PathTemplate } from './path-template';
import { decodeRoutedValue } from './percent-encoding';
import { SegmentIndex } from './segment-index';

/** `values`: every value registered on the template (e.g. one per HTTP method), in registration order. */
export interface RouteMatch<T> {
  readonly template: PathTemplate;
  readonly values: readonly T[];
  /** Computed on first read. */
  readonly params: Readonly<Record<string, string>>;
  /** One capture group's decoded value without building {@link params}: what a path-parameter reader asks. */
  valueAt(group: number): string | undefined;
}

interface RouteGroup<T> {
  readonly template: PathTemplate;
  readonly values: T[];
  /** The last precedence key. */
  readonly order: number;
}

const NO_MATCHES: readonly never[] = Object.freeze([]);

/** Up to this many, trying each regex (most fail at once) costs less than finding the path's bucket first. */
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

/** As the Java REST specification's request matching orders templates. */
function byPrecedence<T>(a: RouteGroup<T>, b: RouteGroup<T>): number {
  return (
    b.template.literalCharacters - a.template.literalCharacters ||
    b.template.variableCount - a.template.variableCount ||
    b.template.regexVariableCount - a.template.regexVariableCount ||
    a.order - b.order
  );
}

/** `match` gives every matching template: the caller picks one by method and media types, and `Allow` from all. */
export class Router<T> {
  #groups = new Map<string, RouteGroup<T>>();
  #frozen = false;
  /** Literal paths (with and without a trailing slash) → their precomputed answer. */
  #literalPaths = new Map<string, readonly RouteMatch<T>[]>();
  #templated: SegmentIndex<RouteGroup<T>> = new SegmentIndex([]);
  /** All the templated groups, when {@link FEW_TEMPLATES}. */
  #fewTemplated: readonly RouteGroup<T>[] | undefined;

  /** Templates that differ only in spacing share one group. */
  add(template: PathTemplate, value: T): void {
    if (this.#frozen) throw new Error('Router.add called after freeze()');
    const key = `${template.normalized}\u0000${template.captures.map((capture) => capture.name).join('\u0000')}`;
    const group = this.#groups.get(key);
    if (group === undefined) this.#groups.set(key, { template, values: [value], order: this.#groups.size });
    else group.values.push(value);
  }

  /** Further `add` calls throw. */
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

  /** The arrays are shared between calls: do not modify them. */
  match(path: string): readonly RouteMatch<T>[] {
    if (!this.#frozen) throw new Error('Router.match called before freeze()');
    const literal = this.#literalPaths.get(path);
    if (literal !== undefined) return literal;
    // The index only narrows (in precedence order): each candidate's regex decides either way.
    const candidates = this.#fewTemplated ?? this.#templated.candidates(path);
    // Most paths match one template: `[first]` is made at its size (a pushed-to empty array grows a larger store).
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

function answerFor<T>(path: string, literal: RouteGroup<T>, templated: readonly RouteGroup<T>[]) {
  const matching = templated.filter((group) => group.template.regex.test(path));
  const answer = [literal, ...matching].sort(byPrecedence).map((group): RouteMatch<T> => {
    const { template, values } = group;
    if (group === literal) return Object.freeze({ template, values, params: NO_PARAMS, valueAt: () => undefined });
    const match = new TemplateMatch(group, group.template.regex.exec(path) as RegExpExecArray);
    void match.params;
    return match;
  });
  return Object.freeze(answer);
}
