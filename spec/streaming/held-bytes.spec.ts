import { HeldBytes, STREAM_SHARE } from '../../lib/streaming/held-bytes';

const MB = 1024 * 1024;

describe('HeldBytes', () => {
  it('lets a stream within its share grow whatever the others hold, and one past it only while every other share stays free', () => {
    const held = new HeldBytes(8 * MB);
    for (let k = 0; k < 4; k++) held.join();
    // One stream (a hoarder) takes all the total leaves past the other three streams' shares.
    const hoarded = held.move(0, held.room(0));
    expect(hoarded).toBe(8 * MB - 3 * STREAM_SHARE);
    expect(held.room(hoarded)).toBe(0);
    // A stream that reads may still hold its whole share, and the total stays within the limit.
    expect(held.room(0)).toBe(STREAM_SHARE);
    held.move(0, 3 * STREAM_SHARE);
    expect(held.total).toBe(8 * MB);
  });

  it('divides half the total among the open streams when it has less than a share for each', () => {
    const held = new HeldBytes(1 * MB);
    for (let k = 0; k < 16; k++) held.join();
    // One stream takes all the others' shares leave; each of them may still hold its own.
    const hoarded = held.move(0, held.room(0));
    expect(hoarded).toBe(MB - 15 * (MB / 32));
    expect(held.room(0)).toBe(MB / 32);
    held.leave(hoarded);
    expect(held.open).toBe(15);
  });

  it('lets a stream past its share grow while the total is under half the limit, however many streams are open', () => {
    const held = new HeldBytes(1 * MB);
    for (let k = 0; k < 1000; k++) held.join();
    // A share is 524 bytes here: a stream holding its socket's 16 KB may still take what half the total leaves.
    const counted = held.move(0, 16 * 1024);
    expect(held.room(counted)).toBeGreaterThan(MB / 2 - counted);
  });

  it('counts nothing once every stream left with what it held', () => {
    const held = new HeldBytes(8 * MB);
    held.join();
    held.join();
    const first = held.move(0, 3 * MB);
    const second = held.move(0, 100);
    held.leave(first);
    held.leave(second);
    expect([held.total, held.open]).toEqual([0, 0]);
  });
});
