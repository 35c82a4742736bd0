// Path templates filled for links; knows nothing of matching.
import { encodePathSegment } from './percent-encoding';
import { parseTemplate } from './template-parser';

/** One path segment per value (RFC 3986 §3.3); a variable without one is left as `{name}`, without its regex. */
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
