/** Query strings (application/x-www-form-urlencoded, WHATWG URL §5.1) split into name → values. */

const PERCENT = 0x25;
const PLUS = 0x2b;

function decodeQueryComponent(text: string): string {
  if (text.indexOf('+') >= 0) text = text.replace(/\+/g, ' ');
  if (text.indexOf('%') < 0) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    // URLSearchParams keeps a malformed escape as it is; so do we.
    return new URLSearchParams(`x=${text}`).get('x') ?? text;
  }
}

/** Each non-empty pair's name is `[start, nameEnd)`, its value after. */
function forEachPair(query: string, visit: (start: number, nameEnd: number, end: number) => void): void {
  for (let start = 0; start <= query.length;) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    if (end > start) {
      const equals = query.indexOf('=', start);
      visit(start, equals >= 0 && equals < end ? equals : end, end);
    }
    start = end + 1;
  }
}

function valueOf(query: string, nameEnd: number, end: number): string {
  return nameEnd === end ? '' : decodeQueryComponent(query.slice(nameEnd + 1, end));
}

/** Decoded as `URLSearchParams` decodes, into a plain map: cheaper than a `URLSearchParams` per request. */
export function parseQuery(query: string): Map<string, string[]> {
  const values = new Map<string, string[]>();
  forEachPair(query, (start, nameEnd, end) => {
    const name = decodeQueryComponent(query.slice(start, nameEnd));
    const list = values.get(name);
    if (list) list.push(valueOf(query, nameEnd, end));
    else values.set(name, [valueOf(query, nameEnd, end)]);
  });
  return values;
}

/** Without building the map: cheaper when a request reads a parameter or two of a short query. */
export function findQueryValues(query: string, name: string): string[] | undefined {
  let found: string[] | undefined;
  // forEachPair's loop, written out: this runs for each query parameter of most requests, and makes no closure.
  for (let start = 0; start <= query.length;) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    if (end > start) {
      const equals = query.indexOf('=', start);
      const nameEnd = equals >= 0 && equals < end ? equals : end;
      if (nameMatches(query, start, nameEnd, name)) {
        // `[value]` is made at its size; push() on [] would reserve room for 17.
        const value = valueOf(query, nameEnd, end);
        if (found) found.push(value);
        else found = [value];
      }
    }
    start = end + 1;
  }
  return found;
}

/** An undecoded name is compared in place. */
function nameMatches(query: string, start: number, end: number, name: string): boolean {
  const raw = end - start;
  // An escape is longer than what it stands for: a shorter name can only be that name if it is not escaped.
  if (raw < name.length) return false;
  let encoded = false;
  for (let i = start; i < end; i++) {
    const code = query.charCodeAt(i);
    if (code === PERCENT || code === PLUS) {
      encoded = true;
      break;
    }
  }
  if (!encoded) return raw === name.length && query.startsWith(name, start);
  return decodeQueryComponent(query.slice(start, end)) === name;
}
