// Tokenises path templates (`{name}` / `{name: regex}`, the Java REST specification's); knows nothing of matching.

/** The build step collects these into its definition error. */
export class TemplateError extends Error {
  override readonly name: string;
  readonly template: string;
  readonly problem: string;

  constructor(template: string, problem: string) {
    super(`Invalid path template "${template}": ${problem}`);
    this.name = 'TemplateError';
    this.template = template;
    this.problem = problem;
  }
}

export type TemplateToken =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'variable'; readonly name: string; readonly regex: string | undefined };

/** The Java REST specification's name grammar. */
const VARIABLE_NAME = /^\w[\w.-]*$/;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** A regex may contain balanced or escaped braces (`{year: \d{4}}`); errors name `template`, as the user wrote it. */
export function parseTemplate(text: string, template: string = text): TemplateToken[] {
  const tokens: TemplateToken[] = [];
  let literalStart = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === CLOSE_BRACE) throw new TemplateError(template, `unexpected '}' in "${text.slice(0, i + 1)}"`);
    if (code !== OPEN_BRACE) {
      i++;
      continue;
    }
    if (i > literalStart) tokens.push({ kind: 'literal', text: text.slice(literalStart, i) });
    const end = closingBrace(text, i, template);
    tokens.push(parseVariable(text.slice(i + 1, end), template));
    i = literalStart = end + 1;
  }
  if (literalStart < text.length) tokens.push({ kind: 'literal', text: text.slice(literalStart) });
  return tokens;
}

function closingBrace(text: string, open: number, template: string): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return i;
  }
  throw new TemplateError(template, `unclosed '{' in "${text.slice(open)}"`);
}

function parseVariable(inner: string, template: string): TemplateToken {
  const colon = inner.indexOf(':');
  const name = (colon === -1 ? inner : inner.slice(0, colon)).trim();
  if (name === '') throw new TemplateError(template, `empty variable name in "{${inner}}"`);
  if (!VARIABLE_NAME.test(name)) throw new TemplateError(template, `invalid variable name "${name}"`);
  if (colon === -1) return { kind: 'variable', name, regex: undefined };
  const regex = inner.slice(colon + 1).trim();
  if (regex === '') throw new TemplateError(template, `empty regular expression for {${name}}`);
  templateRegex(regex, template, `invalid regular expression for {${name}}`);
  return { kind: 'variable', name, regex };
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

export function escapeRegex(text: string): string {
  return text.replace(REGEX_SPECIAL, '\\$&');
}

/** When `source` is none, a `TemplateError` saying `problem` and why. */
export function templateRegex(source: string, template: string, problem: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TemplateError(template, `${problem}: ${reason}`);
  }
}
