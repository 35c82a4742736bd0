/** The byte budget of a stream: how far an Observable may get ahead of its client, read from a size. */
import { MIN_STREAM_BUDGET, STREAM_BUDGET_MEANING } from '../config/schema';
import { formatSize, parseSize } from '../http/size';

/** `size` (bytes, or text such as `'8M'`) as a stream budget in bytes; a RangeError below the minimum. */
export function streamBudget(size: number | string): number {
  const bytes = typeof size === 'number' ? size : parseSize(size);
  if (!(bytes >= MIN_STREAM_BUDGET)) {
    throw new RangeError(
      `A stream buffer size must be at least ${formatSize(MIN_STREAM_BUDGET)}, ${STREAM_BUDGET_MEANING}; got ${String(size)}`,
    );
  }
  return bytes;
}
