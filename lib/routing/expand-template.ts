// Fills path template variables with percent-encoded values (for links); knows nothing of matching.
import { encodePathSegment } from './percent-encoding';
import { parseTemplate } from './template-parser';

/**
 * Fills a template's variables with percent-encoded values (one path segment each, RFC 3986 §3.3); a variable
 * without a value is left as `{name}` (without its regex). Literal text is kept as written.
 *
 * @throws {TemplateError} when the template is malformed.
 * @example
 * expandTemplate('/records/{id: \\d+}/{slug}', (name) => (name === 'id' ? '42' : undefined)); // '/records/42/{slug}'
 */
export function expandTemplate(template: string, values: (name: string) => string | undefined): string {
  let expanded = '';
  for (const token of parseTemplate(template)) {
    if (token.kind === 'literal') {
      expanded += token.text;
      continue;
    }
    const value = values(token.name);
    expanded += value === undefined ? `{${token.name}}` : encodePathSegment(value);
  }
  return expanded;
}
