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

/** Small pieces joined into one once this many wait: a string per 2-byte piece costs some 17 times its text. */
const PIECES_AT_ONCE = 256;

/**
 * Text held in the pieces it came in and joined once, when it is taken: a copy of all held per piece would cost a text
 * sent a few bytes at a time the square of its length. The latest pieces are joined in batches, so memory stays near
 * the text's own size.
 */
export class HeldText {
  readonly #pieces: string[] = [];
  readonly #recent: string[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  add(piece: string): void {
    if (!piece) return;
    this.#length += piece.length;
    if (this.#recent.push(piece) < PIECES_AT_ONCE) return;
    this.#pieces.push(this.#recent.join(''));
    this.#recent.length = 0;
  }

  /** All held, followed by `last`; nothing is held after. */
  take(last = ''): string {
    const text = this.#length ? this.#pieces.join('') + this.#recent.join('') + last : last;
    this.#pieces.length = this.#recent.length = this.#length = 0;
    return text;
  }
}

export class JsonArrayItems {
  /** The whole body when it is not an array. */
  #text = '';
  /** The unfinished item, if one is. */
  readonly #item = new HeldText();
  /** The length of what came after the closing bracket (read no further). */
  #after = 0;
  /** 1 inside the top-level array. */
  #depth = 0;
  #inString = false;
  #escaped = false;
  #isArray: boolean | undefined;
  #closed = false;

  /** `item` gets the text of every item completed by `chunk`, in order. */
  push(chunk: string, item: (text: string) => void): void {
    if (this.#isArray === undefined) chunk = this.#detect(chunk);
    if (this.#isArray === false) this.#text += chunk;
    else if (this.#closed) this.#after += chunk.length;
    else if (this.#isArray) this.#scan(chunk, item);
  }

  /** What follows the opening bracket, or the chunk when the body is no array; white space before either is dropped. */
  #detect(chunk: string): string {
    let index = 0;
    while (index < chunk.length && isSpace(chunk.charCodeAt(index))) index++;
    if (index === chunk.length) return '';
    this.#isArray = chunk.charCodeAt(index) === OPEN_BRACKET;
    if (!this.#isArray) return chunk;
    this.#depth = 1;
    return chunk.slice(index + 1);
  }

  /** Scans one chunk to its end or the array's; its state lives in locals while it runs (a hot loop). */
  #scan(text: string, item: (text: string) => void): void {
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let start = this.#item.length ? 0 : -1;
    let index = 0;
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
          if (start >= 0) item(this.#item.take(text.slice(start, index)).trim());
          start = -1;
          this.#closed = true;
        }
      } else if (code === COMMA && depth === 1) {
        if (start >= 0) item(this.#item.take(text.slice(start, index)).trim());
        start = -1;
      } else if (start < 0 && depth === 1 && !isSpace(code)) start = index;
    }
    if (start >= 0) this.#item.add(text.slice(start));
    if (this.#closed) this.#after = text.length - index;
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
  }

  /** The item not yet complete, or the whole body so far when it is not an array. */
  get held(): number {
    return this.#isArray === false ? this.#text.length : this.#item.length + this.#after;
  }

  get pending(): number {
    return this.#item.length;
  }

  /** The whole body when it was not an array (`undefined` for an array or an empty body). */
  end(): string | undefined {
    if (this.#isArray === false) return this.#text;
    if (this.#isArray === true && !this.#closed)
      throw new SyntaxError('the JSON array ended before its closing bracket');
    return undefined;
  }
}
