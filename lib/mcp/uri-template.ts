/**
 * Resource URI templates, RFC 6570 level 1 (`test://template/{id}/data`): the variables a URI gives them. A variable
 * matches one or more characters up to the next literal character (never a `/`), and is percent-decoded.
 */

export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  /** The variables `uri` gives the template, or `undefined` when it does not match. */
  match(uri: string): Readonly<Record<string, string>> | undefined;
}

const VARIABLE = /\{([A-Za-z0-9_]+)\}/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Compiles `template`; throws naming what is wrong with it (an operator of a later level, a repeated variable). */
export function compileUriTemplate(template: string): UriTemplate {
  const variables: string[] = [];
  let pattern = '^';
  let last = 0;
  for (const found of template.matchAll(VARIABLE)) {
    pattern += escapeRegExp(template.slice(last, found.index));
    const name = found[1]!;
    if (variables.includes(name)) throw new Error(`the URI template ${template} repeats the variable {${name}}`);
    variables.push(name);
    pattern += '([^/]+?)';
    last = found.index + found[0].length;
  }
  const rest = template.slice(last);
  if (rest.includes('{') || template.slice(0, last).replace(VARIABLE, '').includes('{'))
    throw new Error(`the URI template ${template} has an expression other than {name} (only level 1 is supported)`);
  pattern += `${escapeRegExp(rest)}$`;
  const regex = new RegExp(pattern);
  return {
    template,
    variables,
    match(uri) {
      const matched = regex.exec(uri);
      if (!matched) return undefined;
      const values: Record<string, string> = {};
      try {
        variables.forEach((name, k) => (values[name] = decodeURIComponent(matched[k + 1]!)));
      } catch {
        return undefined;
      }
      return values;
    },
  };
}
