// Compiles path templates into anchored regexes with precedence keys (the Java REST specification's template syntax and matching order); knows nothing of requests.
import { decodeRoutedValue, normalizeEscapes } from './percent-encoding';
import { SegmentMatcher, sharesSegments, type TemplatePart, type TemplateRegex } from './segment-matcher';
import { fitsWholeTemplate, MixedSegmentMatcher } from './mixed-segment-matcher';
import { SegmentedMatcher, staysInSegment } from './segmented-matcher';
import { mayMatchSlash } from './slash-analysis';
import { escapeRegex, parseTemplate, TemplateError, templateRegex, type TemplateToken } from './template-parser';

/** Where one occurrence of a variable lands in {@link PathTemplate.regex}'s match array. */
export interface TemplateCapture {
  readonly name: string;
  readonly group: number;
}

/** A compiled path template. Build with {@link compilePathTemplate}. */
export interface PathTemplate {
  /** The template as given. */
  readonly template: string;
  /** Unique variable names, in order of first appearance. */
  readonly variables: readonly string[];
  /**
   * Anchored; tolerates one trailing slash. Runs on paths from `parseRequestPath` (escapes decoded except
   * `%2F` and `%25`), so read values through {@link readParams}, which decodes those two. A regular expression,
   * or for a template with two `{name}` variables in one segment a matcher that gives the same values in linear time.
   */
  readonly regex: TemplateRegex;
  /** Characters left once variables are removed (with a leading `/`, escapes decoded): the first precedence key. */
  readonly literalCharacters: number;
  /** Variable occurrences: the second precedence key. */
  readonly variableCount: number;
  /** Variable occurrences with an explicit regex: the third precedence key. */
  readonly regexVariableCount: number;
  /** Variables replaced by `{}` or `{:regex}`: equal for templates that match the same paths alike (`v1/{a}`, `v1/{b}`). */
  readonly normalized: string;
  /** No variables: {@link normalized} is then the one path the template matches (besides a trailing slash). */
  readonly isLiteral: boolean;
  /** One entry per variable occurrence; a name used twice appears twice (the last occurrence wins in params). */
  readonly captures: readonly TemplateCapture[];
  /** `/` characters in the literal text: a matching path (without trailing slash) has exactly as many, unless… */
  readonly slashCount: number;
  /** …a variable's regex may match `/` (`{path: .+}`): the path then has at least {@link slashCount}. */
  readonly spansSegments: boolean;
}

/** A `{name}` without regex: one segment, shortest match as in the Java REST specification (`([^/]+?)`). */
const DEFAULT_VARIABLE_REGEX = '[^/]+?';
const UNESCAPED_PERCENT = /%(?![0-9A-Fa-f]{2})/g;

/**
 * Joins application path, class `@Path` and method `@Path` into one template: empty parts ignored, one `/`
 * between parts, a leading `/`, no trailing `/` except for the root.
 *
 * @example
 * joinPaths('/api', 'rest/V1/', '{id}'); // '/api/rest/V1/{id}'
 * joinPaths('', '/');                    // '/'
 */
export function joinPaths(...parts: string[]): string {
  let joined = '';
  for (const part of parts) {
    const trimmed = trimSlashes(part);
    if (trimmed !== '') joined += '/' + trimmed;
  }
  return joined === '' ? '/' : joined;
}

function trimSlashes(part: string): string {
  let start = 0;
  let end = part.length;
  while (start < end && part.charCodeAt(start) === 0x2f) start++;
  while (end > start && part.charCodeAt(end - 1) === 0x2f) end--;
  return part.slice(start, end);
}

/**
 * Compiles a template such as `/hello/{name}/{age: \d+}`. Literal text may be written raw or percent-encoded
 * (`café` and `caf%C3%A9` are the same template); a variable's own capturing groups do not shift the others.
 *
 * @throws {TemplateError} unclosed `{`, stray `}`, empty or invalid name, invalid regex, a name reused with another regex.
 * @example
 * const t = compilePathTemplate('/hello/{name}/{age: \\d+}');
 * readParams(t, t.regex.exec('/hello/stef/23')!); // { name: 'stef', age: '23' }
 * t.regex.test('/hello/stef/0x23');               // false
 */
export function compilePathTemplate(template: string): PathTemplate {
  const tokens = parseTemplate(joinPaths(template), template);
  const captures: TemplateCapture[] = [];
  const regexByName = new Map<string, string>();
  let source = '^';
  let normalized = '';
  let group = 1;
  const parts: TemplatePart[] = [];
  const variableRegexes: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'literal') {
      const text = normalizeLiteral(token.text, template);
      source += escapeRegex(text);
      normalized += text;
      parts.push(text);
      continue;
    }
    const regex = checkReuse(token, regexByName, template);
    variableRegexes.push(regex);
    source += `(${regex})`;
    normalized += token.regex === undefined ? '{}' : `{:${token.regex}}`;
    captures.push({ name: token.name, group });
    group += 1 + countCapturingGroups(regex);
    parts.push(null);
  }
  const regexes = explicitRegexes(tokens);
  return {
    template,
    variables: [...regexByName.keys()],
    regex: matcherOf(parts, variableRegexes, source + (normalized === '/' ? '$' : '/?$'), template),
    ...literalKeys(parts),
    variableCount: captures.length,
    regexVariableCount: regexes.length,
    normalized,
    isLiteral: captures.length === 0,
    captures,
    spansSegments: regexes.some((regex) => mayMatchSlash(regex)),
  };
}

/**
 * The template's regular expression (`source`), or, for two `{name}` variables in one segment, a matcher that gives
 * its values in linear time: the whole template's, or, beside variables with a regex of their own that keep to their
 * segment, one segment at a time. Other regexes of a variable's own keep the regular expression: they are the
 * application's to write.
 */
function matcherOf(
  parts: readonly TemplatePart[],
  regexes: readonly string[],
  source: string,
  template: string,
): TemplateRegex {
  const regex = templateRegex(source, template, 'regular expressions do not combine');
  if (!sharesSegments(parts)) return regex;
  const trailingSlash = source.endsWith('/?$');
  if (regexes.every((own) => own === DEFAULT_VARIABLE_REGEX)) return new SegmentMatcher(parts, trailingSlash);
  const plainOr = (fits: (own: string) => boolean) =>
    regexes.every((own) => own === DEFAULT_VARIABLE_REGEX || fits(own));
  if (plainOr(staysInSegment)) return new SegmentedMatcher(parts, regexes, DEFAULT_VARIABLE_REGEX, trailingSlash);
  // A regex that may match `/` (`{rest: .+}`): the whole path is searched, each `{name}` within its segment.
  if (plainOr(fitsWholeTemplate)) return new MixedSegmentMatcher(parts, regexes, DEFAULT_VARIABLE_REGEX, trailingSlash);
  return regex;
}

/** The literal text alone (escapes decoded): its length and its slashes are precedence and matching keys. */
function literalKeys(parts: readonly TemplatePart[]): { literalCharacters: number; slashCount: number } {
  const literal = parts.filter((part) => part !== null).join('');
  return { literalCharacters: literal.length, slashCount: literal.split('/').length - 1 };
}

/** The regular expressions written in the template's variables (`{id: \d+}`), in order. */
function explicitRegexes(tokens: readonly TemplateToken[]): string[] {
  return tokens.flatMap((token) => (token.kind === 'variable' && token.regex !== undefined ? [token.regex] : []));
}

function normalizeLiteral(text: string, template: string): string {
  if (text.indexOf('%') === -1) return text;
  // A `%` that starts no escape is a literal percent sign (the @Path rule: never double-encode, never reject).
  const normalized = normalizeEscapes(text.replace(UNESCAPED_PERCENT, '%25'));
  if (normalized === undefined) throw new TemplateError(template, `percent-escapes in "${text}" are not UTF-8`);
  return normalized;
}

function checkReuse(
  token: Extract<TemplateToken, { kind: 'variable' }>,
  regexByName: Map<string, string>,
  template: string,
): string {
  const regex = token.regex ?? DEFAULT_VARIABLE_REGEX;
  const previous = regexByName.get(token.name);
  if (previous !== undefined && previous !== regex) {
    throw new TemplateError(template, `variable {${token.name}} is used twice with different regular expressions`);
  }
  regexByName.set(token.name, regex);
  return regex;
}

/** An empty alternative always matches, and its match array has one slot per capturing group of `regex`. */
function countCapturingGroups(regex: string): number {
  return (new RegExp(`(?:${regex})|`).exec('') as RegExpExecArray).length - 1;
}

/**
 * The prototype of every params object: empty and itself without prototype, so that params inherit nothing
 * (`constructor`, `toString`, the `__proto__` accessor) while staying ordinary fast objects. A params object
 * made by `Object.create(null)` is a dictionary-mode object in V8, and writing it showed up at 4–5% of a
 * request's CPU (`npm run bench -- --profile` after a literal route had been served for a while) against
 * 0.4% for this.
 */
const PARAMS_PROTOTYPE: object = Object.freeze(Object.create(null) as object);

/** The params of a match without variables (a literal route), or of a request not routed yet: shared, frozen, made like every other. */
export const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(
  Object.create(PARAMS_PROTOTYPE) as Record<string, string>,
);

/**
 * Reads a template's variables from a successful `template.regex.exec(path)`, decoding `%2F` and `%25`.
 * The object inherits nothing, so a variable named `__proto__` or `constructor` is an ordinary key.
 *
 * @example
 * const t = compilePathTemplate('/files/{name}');
 * readParams(t, t.regex.exec('/files/a%2Fb')!); // { name: 'a/b' }
 */
export function readParams(template: PathTemplate, match: RegExpExecArray): Record<string, string> {
  const params = Object.create(PARAMS_PROTOTYPE) as Record<string, string>;
  const { captures } = template;
  for (let i = 0; i < captures.length; i++) {
    const capture = captures[i];
    const value = match[capture.group];
    params[capture.name] = value === undefined ? '' : decodeRoutedValue(value);
  }
  return params;
}

/**
 * Matches one template against a path from `parseRequestPath`: its params, or `undefined`.
 *
 * @example
 * matchTemplate(compilePathTemplate('/a/{x}'), '/a/b'); // { x: 'b' }
 */
export function matchTemplate(template: PathTemplate, path: string): Record<string, string> | undefined {
  const match = template.regex.exec(path);
  return match === null ? undefined : readParams(template, match);
}
