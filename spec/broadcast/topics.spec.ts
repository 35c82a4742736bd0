// The process's topics: those named by broadcast() stay; those made only to carry events (a resumable stream's, one
// heard of from another instance) are forgotten once they hold nothing, so jobs do not pile up in memory.
import { broadcast } from '../../lib';
import { carrier } from '../../lib/broadcast/topics';

describe('topics', () => {
  afterEach(() => jest.useRealTimers());

  it('forgets a carrier topic with no event and no subscriber at the next sweep, never a named one or a busy one', () => {
    jest.useFakeTimers();
    const idle = carrier('carried-idle');
    const busy = carrier('carried-busy');
    const subscription = busy.join(undefined).subscribe();
    const named = broadcast('named-idle');
    jest.advanceTimersByTime(60_000);
    expect(carrier('carried-idle')).not.toBe(idle);
    expect(carrier('carried-busy')).toBe(busy);
    expect(broadcast('named-idle')).toBe(named);
    subscription.unsubscribe();
  });

  it('keeps a carrier topic that a later broadcast() names', () => {
    jest.useFakeTimers();
    const carried = carrier('carried-named');
    expect(broadcast('carried-named')).toBe(carried);
    jest.advanceTimersByTime(120_000);
    expect(broadcast('carried-named')).toBe(carried);
  });
});
