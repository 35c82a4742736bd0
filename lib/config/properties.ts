// Parses the Java `.properties` text format into key/value pairs; knows nothing of what the keys mean.

const WHITESPACE = new Set([' ', '\t', '\f']);
const SEPARATORS = new Set(['=', ':']);
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { t: '\t', n: '\n', r: '\r', f: '\f' };

/** A logical line (continuations joined) and the number of the natural line it started on. */
interface LogicalLine {
  readonly text: string;
  readonly lineNumber: number;
}

/**
 * Parses `.properties` text as `java.util.Properties.load` does: `key=value`, `key: value` and `key value`
 * lines, `#`/`!` comment lines, a trailing odd backslash continuing the line (the next line's leading
 * whitespace is dropped), and the escapes `\t \n \r \f \uXXXX` (any other escaped character stands for
 * itself, so `\=`, `\:`, `\ ` and `\\` are literal). Leading whitespace of a value is trimmed, trailing
 * whitespace kept. One addition to Java: inside a double-quoted key segment, separators do not end the key,
 * so `framework.log.category."my logger".level=DEBUG` keeps the quotes and the space in its key.
 * A repeated key keeps its last value.
 *
 * @throws SyntaxError on a malformed `\uXXXX` escape, naming the line.
 * @example
 * parseProperties('framework.http.port = 8080\n# comment\ngreeting=hello \\\n    world');
 * // Map { 'framework.http.port' => '8080', 'greeting' => 'hello world' }
 */
export function parseProperties(text: string): Map<string, string> {
  return new Map(Array.from(logicalLines(text.replace(/^\uFEFF/, '')), splitEntry));
}

/** Yields non-blank, non-comment logical lines; a comment line never continues (as in Java). */
function* logicalLines(text: string): Generator<LogicalLine> {
  const natural = text.split(/\r\n|\r|\n/);
  for (let index = 0; index < natural.length; index++) {
    let line = skipWhitespace(natural[index]!);
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const lineNumber = index + 1;
    while (endsWithContinuation(line) && index + 1 < natural.length) {
      index++;
      line = line.slice(0, -1) + skipWhitespace(natural[index]!);
    }
    if (endsWithContinuation(line)) line = line.slice(0, -1);
    yield { text: line, lineNumber };
  }
}

const skipWhitespace = (text: string): string => text.replace(/^[ \t\f]+/, '');

/** An odd number of trailing backslashes continues the line; an even number is escaped backslashes. */
const endsWithContinuation = (line: string): boolean => /\\*$/.exec(line)![0].length % 2 === 1;

function splitEntry(line: LogicalLine): [string, string] {
  const { text } = line;
  let position = 0;
  let inQuotes = false;
  while (position < text.length) {
    const char = text[position]!;
    if (char === '\\') {
      position += 2;
      continue;
    }
    if (char === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (WHITESPACE.has(char) || SEPARATORS.has(char))) break;
    position++;
  }
  const key = unescape(text.slice(0, Math.min(position, text.length)), line.lineNumber);
  let rest = skipWhitespace(text.slice(position));
  if (rest !== '' && SEPARATORS.has(rest[0]!)) rest = skipWhitespace(rest.slice(1));
  return [key, unescape(rest, line.lineNumber)];
}

/** A backslash ending the text stands for itself. */
function unescape(text: string, lineNumber: number): string {
  return text.replace(/\\(?:u([^]{0,4})|([^]))/g, (_, hex: string | undefined, escaped: string) => {
    if (hex === undefined) return SIMPLE_ESCAPES[escaped] ?? escaped;
    if (!/^[0-9a-fA-F]{4}$/.test(hex))
      throw new SyntaxError(`Malformed \\uXXXX escape "\\u${hex}" on line ${lineNumber}`);
    return String.fromCharCode(Number.parseInt(hex, 16));
  });
}
