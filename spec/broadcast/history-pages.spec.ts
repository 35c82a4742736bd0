// Pages of history shared between resuming subscribers: a full page is read once for everyone asking at the same
// time or within a few seconds; a short page (the stream's end) is read again for each caller; a failed read is
// not kept; clear() forgets them all.
import { HistoryPages, PAGE } from '../../lib/broadcast/history-pages';
import type { BroadcastEvent } from '../../lib/broadcast/topic-events';

const events = (count: number, from = 0): BroadcastEvent[] =>
  Array.from({ length: count }, (_, n) => ({ id: `1-${n + from}`, data: n + from }));

function pagesOver(answer: (start: string) => Promise<BroadcastEvent[]>): { pages: HistoryPages; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    pages: new HistoryPages((topic, start) => {
      reads.push(`${topic} ${start}`);
      return answer(start);
    }),
  };
}

describe('HistoryPages', () => {
  it('reads a full page once for callers at the same time and for a caller seconds later, sharing its events', async () => {
    const { pages, reads } = pagesOver(async () => events(PAGE));
    const [a, b] = await Promise.all([pages.page('t', '(1-0'), pages.page('t', '(1-0')]);
    const later = await pages.page('t', '(1-0', PAGE, Date.now() + 5000);
    expect(reads).toEqual(['t (1-0']);
    expect(b).toBe(a);
    expect(later).toBe(a);
    // Kept for ten seconds only.
    await pages.page('t', '(1-0', PAGE, Date.now() + 11_000);
    expect(reads).toHaveLength(2);
  });

  it('reads a short page again for every caller: the stream may have grown since', async () => {
    const { pages, reads } = pagesOver(async () => events(3));
    const [a, b] = await Promise.all([pages.page('t', '(1-0'), pages.page('t', '(1-0')]);
    expect(a).toHaveLength(3);
    expect(b).not.toBe(a);
    expect(reads).toHaveLength(2);
  });

  it('keeps pages by topic and start, keeps no failure, and forgets everything on clear()', async () => {
    let fail = true;
    const { pages, reads } = pagesOver(async (start) => {
      if (fail && start === 'x') throw new Error('Redis unreachable');
      return events(PAGE);
    });
    await expect(pages.page('t', 'x')).rejects.toThrow('Redis unreachable');
    fail = false;
    await pages.page('t', 'x');
    await pages.page('u', 'x');
    await pages.page('t', 'y');
    pages.clear();
    await pages.page('t', 'x');
    expect(reads).toEqual(['t x', 't x', 'u x', 't y', 't x']);
  });
});
