/** RFC 6570 level-1 URI templates: a variable matches one or more characters but `/`, and is percent-decoded. */

export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  match(uri: string): Readonly<Record<string, string>> | undefined;
}

const VARIABLE = /\{([A-Za-z0-9_]+)\}/g;

/**
 * The variables of `uri` between `literals`, in one pass, each literal at its first place after the variable before
 * it: a backtracking regular expression made `{name}.{ext}` quadratic and `{a}-{b}-{c}` cubic. The first place is
 * right: what matches after a later place matches after an earlier one too, the variable before taking the difference.
 */
function variablesOf(literals: readonly string[], uri: string): string[] | undefined {
  const first = literals[0]!;
  const last = literals.at(-1)!;
  const end = uri.length - last.length;
  if (!uri.startsWith(first) || !uri.endsWith(last) || end < first.length) return undefined;
  const values: string[] = [];
  let at = first.length;
  for (let k = 1; k < literals.length - 1; k++) {
    const next = uri.indexOf(literals[k]!, at + 1);
    if (next < 0 || next + literals[k]!.length > end) return undefined;
    values.push(uri.slice(at, next));
    at = next + literals[k]!.length;
  }
  values.push(uri.slice(at, end));
  return values.every((value) => value.length > 0 && !value.includes('/')) ? values : undefined;
}

/** Throws naming what is wrong (an operator of a later level, a repeated variable). */
export function compileUriTemplate(template: string): UriTemplate {
  const variables: string[] = [];
  const literals: string[] = [];
  let last = 0;
  for (const found of template.matchAll(VARIABLE)) {
    literals.push(template.slice(last, found.index));
    const name = found[1]!;
    if (variables.includes(name)) throw new Error(`the URI template ${template} repeats the variable {${name}}`);
    variables.push(name);
    last = found.index + found[0].length;
  }
  const rest = template.slice(last);
  if (rest.includes('{') || template.slice(0, last).replace(VARIABLE, '').includes('{'))
    throw new Error(`the URI template ${template} has an expression other than {name} (only level 1 is supported)`);
  literals.push(rest);
  return {
    template,
    variables,
    match(uri) {
      if (variables.length === 0) return uri === template ? {} : undefined;
      const found = variablesOf(literals, uri);
      if (!found) return undefined;
      try {
        return Object.fromEntries(variables.map((name, k) => [name, decodeURIComponent(found[k]!)]));
      } catch {
        return undefined;
      }
    },
  };
}
