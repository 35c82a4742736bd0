/** A request body of many items (NDJSON, JSON text sequences, SSE, a JSON array), split as the bytes arrive. */
import type { EventSourceMessage } from 'eventsource-parser';
import { baseType } from '../http/media-type';
import { formatSize } from '../http/size';
import { httpProblem } from '../errors/http-problem';
import { HeldText, JsonArrayItems } from '../json/json-array-items';
import { mayHoldForbiddenKey } from '../json/safe-json';

/** How a body's items are delimited. */
export type ItemFormat = 'lines' | 'json-seq' | 'sse' | 'json-array';

const FORMATS = new Map<string, ItemFormat>([
  ['application/x-ndjson', 'lines'],
  ['application/jsonl', 'lines'],
  ['application/json-lines', 'lines'],
  ['application/stream+json', 'lines'],
  ['application/json-seq', 'json-seq'],
  ['text/event-stream', 'sse'],
  ['application/json', 'json-array'],
]);

/** The media types a body of items may have. */
export const ITEM_MEDIA_TYPES: readonly string[] = [...FORMATS.keys()];

export function itemFormatOf(contentType: string | null | undefined): ItemFormat | undefined {
  return FORMATS.get(baseType(contentType ?? ''));
}

export interface ItemLimits {
  /** The whole body's limit (`framework.http.limits.max-body-size`). */
  readonly maxBodySize: number;
  /** One item's (`framework.http.limits.max-stream-item-size`). */
  readonly maxItemSize: number;
}

/** How an item is named in errors: by line where lines delimit items, else by index. */
export function itemPlace(item: { readonly index: number; readonly line?: number }): string {
  return item.line === undefined ? `Item ${item.index} of the request body` : `Line ${item.line} of the request body`;
}

function tooLarge(limits: ItemLimits, index: number, line?: number): Error {
  const place = itemPlace({ index, line });
  return httpProblem(
    'RXREST_BODY_TOO_LARGE',
    `${place} is longer than ${formatSize(limits.maxItemSize)} (framework.http.limits.max-stream-item-size)`,
  );
}

/**
 * Receives each item (positional arguments: a million lines make a million calls). `suspect`: false when the text it
 * was cut from cannot hold a prototype-poisoning key.
 */
export type EmitItem = (
  text: string,
  index: number,
  line: number | undefined,
  event?: EventSourceMessage,
  suspect?: boolean,
) => void;

/** Splits decoded text into items, each to `emit`; throws an HTTP problem for an item past its limit or bad body. */
export interface ItemSplitter {
  push(text: string, emit: EmitItem): void;
  end(emit: EmitItem): void;
}

/** Whether a piece holds nothing but white space (JSON.parse takes the rest as it is, spaces and `\r` included). */
function isBlank(piece: string): boolean {
  return piece.length === 0 || (piece.charCodeAt(0) <= 0x20 && piece.trim() === '');
}

/** The longest forbidden key less one character: what a chunk's test must see of the text before it. */
const KEY_OVERLAP = 'constructor'.length - 1;

/** Tests text chunk by chunk for poisoning keys, a key cut across two chunks (`__pro` + `to__`) included. */
function forbiddenKeyTest(): (text: string) => boolean {
  let tail = '';
  return (text) => {
    const found = mayHoldForbiddenKey(text) || mayHoldForbiddenKey(tail + text.slice(0, KEY_OVERLAP));
    tail = text.length < KEY_OVERLAP ? (tail + text).slice(-KEY_OVERLAP) : text.slice(-KEY_OVERLAP);
    return found;
  };
}

function lineSplitter(separator: string, limits: ItemLimits): ItemSplitter {
  // Each chunk is searched and tested, never all that is held (an item sent a few bytes at a time would cost its
  // length squared).
  const held = new HeldText();
  let heldSuspect = false;
  const mayHoldKey = forbiddenKeyTest();
  let index = 0;
  let line = 1;
  const lines = separator === '\n';
  const take = (piece: string, emit: EmitItem, suspect?: boolean) => {
    // Blank lines (and a separator's trailing newline) are no items, but still count as lines.
    if (!isBlank(piece)) emit(piece, index++, lines ? line : undefined, undefined, suspect);
    if (lines) line++;
  };
  const bound = (length: number) => {
    if (length > limits.maxItemSize) throw tooLarge(limits, index, lines ? line : undefined);
  };
  return {
    push(text, emit) {
      // One test of the chunk instead of one per item; the item held before it was tested with the chunks it came in.
      const fresh = mayHoldKey(text);
      const suspect = heldSuspect || fresh;
      const pieces = text.split(separator);
      const last = pieces.pop()!;
      if (pieces.length) pieces[0] = held.take(pieces[0]);
      for (const piece of pieces) {
        bound(piece.length);
        take(piece, emit, suspect);
      }
      held.add(last);
      heldSuspect = pieces.length ? fresh : suspect;
      bound(held.length);
    },
    end: (emit) => take(held.take(), emit),
  };
}

/**
 * The most text fed to the SSE parser at once: it looks for `\r` and `\n` apart, each from a line's start to the end
 * of what it was fed, so a chunk of lines ended by one alone would cost the square of the chunk's length.
 */
const SSE_SLICE = 1024;

function sseSplitter(limits: ItemLimits): ItemSplitter {
  let index = 0;
  let buffered = 0;
  let ready: EventSourceMessage[] = [];
  // Loaded with the first body of events: an application that takes none never loads the parser.
  const { createParser } = require('eventsource-parser') as typeof import('eventsource-parser');
  const parser = createParser({
    onEvent: (event) => {
      ready.push(event);
      buffered = 0;
    },
  });
  const flush = (emit: EmitItem) => {
    const events = ready;
    ready = [];
    for (const event of events) {
      // `buffered` counts only what came since the last event: one that came whole in a piece is checked here.
      if (event.data.length > limits.maxItemSize) throw tooLarge(limits, index);
      emit(event.data, index++, undefined, event);
    }
  };
  return {
    push(text, emit) {
      buffered += text.length;
      if (text.includes('\r')) {
        let at = 0;
        do parser.feed(text.slice(at, (at += SSE_SLICE)));
        while (at < text.length);
      } else parser.feed(text);
      if (ready.length === 0 && buffered > limits.maxItemSize) throw tooLarge(limits, index);
      flush(emit);
    },
    end(emit) {
      parser.feed('\n\n');
      flush(emit);
    },
  };
}

function arraySplitter(limits: ItemLimits): ItemSplitter {
  const array = new JsonArrayItems();
  let index = 0;
  return {
    push(text, emit) {
      array.push(text, (item) => {
        // An element that came whole within one piece was never pending: its own length is checked here.
        if (item.length > limits.maxItemSize) throw tooLarge(limits, index);
        emit(item, index++, undefined);
      });
      if (array.pending > limits.maxItemSize) throw tooLarge(limits, index);
    },
    end() {
      let whole: string | undefined;
      try {
        whole = array.end();
      } catch (error) {
        throw httpProblem(
          'RXREST_MALFORMED_BODY',
          `The request body ended inside item ${index}: ${(error as Error).message}`,
        );
      }
      if (whole !== undefined && whole.trim() !== '')
        throw httpProblem('RXREST_MALFORMED_BODY', 'An application/json body of items must be a JSON array');
    },
  };
}

const SPLITTERS: Readonly<Record<ItemFormat, (limits: ItemLimits) => ItemSplitter>> = {
  lines: (limits) => lineSplitter('\n', limits),
  'json-seq': (limits) => lineSplitter('\x1e', limits),
  sse: sseSplitter,
  'json-array': arraySplitter,
};

export function itemSplitter(format: ItemFormat, limits: ItemLimits): ItemSplitter {
  return SPLITTERS[format](limits);
}

/** Counts the bytes of a body as they come, failing with 413 once they pass the body's limit. */
export function byteCounter(limits: ItemLimits): (chunk: Uint8Array) => void {
  let total = 0;
  return (chunk) => {
    total += chunk.byteLength;
    if (total > limits.maxBodySize)
      throw httpProblem('RXREST_BODY_TOO_LARGE', `The request body is larger than ${formatSize(limits.maxBodySize)}`);
  };
}
