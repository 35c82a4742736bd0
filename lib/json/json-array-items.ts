/**
 * Splits a streamed JSON array into the text of its items as they arrive, without holding the whole array. A body
 * that is not an array is kept whole and given back at the end.
 */
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

export class JsonArrayItems {
  #text = '';
  #at = 0;
  /** -1: between items. */
  #itemStart = -1;
  /** 1 inside the top-level array. */
  #depth = 0;
  #inString = false;
  #escaped = false;
  #isArray: boolean | undefined;
  #closed = false;

  /** `item` gets the text of every item completed by `chunk`, in order. */
  push(chunk: string, item: (text: string) => void): void {
    this.#text += chunk;
    if (this.#isArray === undefined) this.#detect();
    if (this.#isArray === false) return;
    if (this.#isArray) this.#scan(item);
    // Keep only the unfinished item: memory stays the size of one item, not of the array.
    const keepFrom = this.#itemStart >= 0 ? this.#itemStart : this.#at;
    this.#text = this.#text.slice(keepFrom);
    this.#at -= keepFrom;
    if (this.#itemStart >= 0) this.#itemStart = 0;
  }

  #detect(): void {
    const text = this.#text;
    let index = this.#at;
    while (index < text.length && isSpace(text.charCodeAt(index))) index++;
    this.#at = index;
    if (index === text.length) return;
    this.#isArray = text.charCodeAt(index) === OPEN_BRACKET;
    if (!this.#isArray) return;
    this.#depth = 1;
    this.#at = index + 1;
  }

  /** Scans from `#at` to the end of the text or of the array; its state lives in locals while it runs (a hot loop). */
  #scan(item: (text: string) => void): void {
    const text = this.#text;
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let start = this.#itemStart;
    let index = this.#at;
    for (; index < text.length && !this.#closed; index++) {
      const code = text.charCodeAt(index);
      if (inString) {
        if (escaped) escaped = false;
        else if (code === BACKSLASH) escaped = true;
        else if (code === QUOTE) inString = false;
        continue;
      }
      if (code === QUOTE) {
        inString = true;
        if (start < 0) start = index;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        if (start < 0 && depth === 1) start = index;
        depth++;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          if (start >= 0) item(text.slice(start, index).trim());
          start = -1;
          this.#closed = true;
        }
      } else if (code === COMMA && depth === 1) {
        if (start >= 0) item(text.slice(start, index).trim());
        start = -1;
      } else if (start < 0 && depth === 1 && !isSpace(code)) start = index;
    }
    this.#at = index;
    this.#itemStart = start;
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
  }

  /** The item not yet complete, or the whole body so far when it is not an array. */
  get held(): number {
    return this.#text.length;
  }

  get pending(): number {
    return this.#itemStart >= 0 ? this.#text.length : 0;
  }

  /** The whole body when it was not an array (`undefined` for an array or an empty body). */
  end(): string | undefined {
    if (this.#isArray === false) return this.#text;
    if (this.#isArray === true && !this.#closed)
      throw new SyntaxError('the JSON array ended before its closing bracket');
    return undefined;
  }
}
