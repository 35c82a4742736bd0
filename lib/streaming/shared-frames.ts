/** The items of one broadcast tick, framed once per framing for every stream that sends them. */
import type { Frame } from './frame-writer';
import type { Framing } from './framing';

/** One framing's frames of the tick's items; `text` joins them (`undefined` when one is bytes or nothing). */
interface Framed {
  readonly frames: readonly (Frame | undefined)[];
  readonly text: string | undefined;
  bytes?: Uint8Array;
}

const encoder = new TextEncoder();

/** A tick's items for a topic's streams, framed once per `shareKey`: a thousand SSE subscribers cost one framing. */
export class SharedFrames {
  readonly #framed = new Map<unknown, Framed | null>();

  constructor(readonly items: readonly unknown[]) {}

  /** The items' frames under `framing`, joined by its separator; `undefined` when not to be made once for all. */
  textFor(framing: Framing): string | undefined {
    return this.#framedBy(framing)?.text;
  }

  /** The same text as UTF-8, encoded once for all the sinks that may share a chunk. */
  bytesFor(framing: Framing): Uint8Array | undefined {
    const framed = this.#framedBy(framing);
    if (framed?.text === undefined) return undefined;
    return (framed.bytes ??= encoder.encode(framed.text));
  }

  /** Each item's frame under `framing`; `undefined` when framing one throws (the stream frames them itself). */
  framesFor(framing: Framing): readonly (Frame | undefined)[] | undefined {
    return this.#framedBy(framing)?.frames;
  }

  #framedBy(framing: Framing): Framed | undefined {
    const key = framing.shareKey ?? framing;
    let framed = this.#framed.get(key);
    if (framed === undefined) this.#framed.set(key, (framed = frameAll(this.items, framing)));
    return framed ?? undefined;
  }
}

/** `null` when framing an item threw: each stream then frames item by item and fails where its own framing fails. */
function frameAll(items: readonly unknown[], framing: Framing): Framed | null {
  const frames: (Frame | undefined)[] = new Array<Frame | undefined>(items.length);
  let joinable = true;
  const frame1 = framing.frameShared ?? ((item: unknown) => framing.frame(item));
  try {
    for (let i = 0; i < items.length; i++) {
      const frame = frame1(items[i]);
      frames[i] = frame;
      if (typeof frame !== 'string') joinable = false;
    }
  } catch {
    return null;
  }
  return { frames, text: joinable && !framing.messages ? (frames as string[]).join(framing.separator) : undefined };
}
