// Path templates filled for links; knows nothing of matching.
import { encodePathSegment } from './percent-encoding';
import { parseTemplate } from './template-parser';

/**
 * A whole segment of `..`, `.` or nothing would be a step of the path, naming the parent or the collection (RFC 3986
 * §5.2.4). Encoding does not help: `%2E` is `.` to every URL parser (RFC 3986 §6.2.2.2; WHATWG URL).
 */
export function isStepSegment(value: string): boolean {
  return value === '' || value === '.' || value === '..';
}

/**
 * One path segment per value (RFC 3986 §3.3); a variable without one, or whose value would be a whole segment of `..`,
 * `.` or nothing ({@link isStepSegment}), is left as `{name}`, without its regex.
 */
export function expandTemplate(template: string, values: (name: string) => string | undefined): string {
  let expanded = '';
  const tokens = parseTemplate(template);
  for (const [index, token] of tokens.entries()) {
    if (token.kind === 'literal') {
      expanded += token.text;
      continue;
    }
    const value = values(token.name);
    const next = tokens[index + 1];
    const endsSegment = next === undefined || (next.kind === 'literal' && next.text.startsWith('/'));
    const whole = (expanded === '' || expanded.endsWith('/')) && endsSegment;
    expanded += value === undefined || (whole && isStepSegment(value)) ? `{${token.name}}` : encodePathSegment(value);
  }
  return expanded;
}
