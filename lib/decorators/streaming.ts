/** A per-endpoint stream buffer (the element type of a stream's items is in `stream-element-type.ts`). */
import type { OverflowPolicy } from '../streaming/backlog';
import { streamBudget } from '../streaming/stream-budget';
import { metaKey, methodMeta, ownerOf } from '../metadata/store';
import { memberName } from './decorator-types';
import type { MethodDecoratorFn } from './resource';

export const STREAM_BUFFER = metaKey<{ size?: number; overflow?: OverflowPolicy }>('stream-buffer');

/**
 * This endpoint's stream budget, over `framework.rest.stream.buffer-size` / `.overflow`: how many bytes
 * of framed output an Observable may get ahead of a slow client (`size`: bytes, or text such as `'1M'`;
 * at least 16K), and what happens to the items past it. A size that is not one throws when the class
 * is defined, naming the method.
 *
 * @example
 * \@GET @Produces('text/event-stream') @StreamBuffer({ size: '256K', overflow: 'latest' })
 * prices(): Multi<Price> { return multi(this.prices$); }
 */
export function StreamBuffer(options: { size?: number | string; overflow?: OverflowPolicy }): MethodDecoratorFn {
  return (target, propertyKey) => {
    const owner = ownerOf(target);
    const name = memberName(propertyKey);
    let size: number | undefined;
    try {
      size = options.size === undefined ? undefined : streamBudget(options.size);
    } catch (error) {
      throw new RangeError(`@StreamBuffer on ${owner.name}.${name}: ${(error as Error).message}`);
    }
    methodMeta(owner, name).tags.set(STREAM_BUFFER, { size, overflow: options.overflow });
  };
}
