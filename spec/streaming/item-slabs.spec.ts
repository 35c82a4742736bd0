import { ItemSlabs } from '../../lib/streaming/item-slabs';

describe('ItemSlabs', () => {
  it('gives items back in order, text as text and bytes as bytes, multi-byte characters whole', () => {
    const slabs = new ItemSlabs(1 << 20);
    slabs.push('{"name":"Äpfel"}\n');
    slabs.push(new Uint8Array([0xff, 0x00, 0xfe]));
    slabs.push('x'.repeat(70_000));
    expect(slabs.bytes).toBe(Buffer.byteLength('{"name":"Äpfel"}\n') + 3 + 70_000);
    expect(slabs.shift()).toBe('{"name":"Äpfel"}\n');
    expect(slabs.shift()).toEqual(new Uint8Array([0xff, 0x00, 0xfe]));
    expect(slabs.shift()).toBe('x'.repeat(70_000));
    expect(slabs.shift()).toBeUndefined();
    expect(slabs.bytes).toBe(0);
  });

  it('keeps every item intact while slabs are reused under a long run of drops', () => {
    const slabs = new ItemSlabs(256 * 1024);
    const item = (i: number) => `${i}:${'y'.repeat(i % 997)}\n`;
    let next = 0;
    let oldest = 0;
    for (let round = 0; round < 2000; round++) {
      for (let k = 0; k < 50; k++) slabs.push(item(next++));
      while (slabs.bytes > 200 * 1024) {
        slabs.drop();
        oldest++;
      }
      if (round % 100 === 0) {
        expect(slabs.shift()).toBe(item(oldest++));
      }
    }
    expect(slabs.size).toBe(next - oldest);
    for (let i = oldest; i < next; i++) expect(slabs.shift() === item(i)).toBe(true);
  });
});
