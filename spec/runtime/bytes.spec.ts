import * as onNode from '../../lib/runtime/bytes';

type Bytes = typeof onNode;

/** The module as a runtime without `Buffer` (a Worker without nodejs_compat) loads it. */
function withoutBuffer(): Bytes {
  const buffer = globalThis.Buffer;
  let loaded: Bytes | undefined;
  Object.defineProperty(globalThis, 'Buffer', { value: undefined, configurable: true, writable: true });
  try {
    jest.isolateModules(() => {
      loaded = require('../../lib/runtime/bytes') as Bytes;
    });
  } finally {
    Object.defineProperty(globalThis, 'Buffer', { value: buffer, configurable: true, writable: true });
  }
  return loaded!;
}

const TEXTS = [
  '',
  'plain ascii',
  'café',
  '€ and ✓',
  '😀 a pair',
  'lone \ud800 high',
  'lone \udc00 low',
  'end \ud83d',
  'high \ud800\ue000 then',
];

describe.each([
  ['with Node’s Buffer', onNode],
  ['without Buffer (the Web’s TextEncoder and TextDecoder)', withoutBuffer()],
])('bytes %s', (_, bytes) => {
  it('counts, encodes and decodes UTF-8 as TextEncoder does, lone surrogates as U+FFFD', () => {
    for (const text of TEXTS) {
      const expected = new TextEncoder().encode(text);
      expect([text, bytes.utf8Length(text)]).toEqual([text, expected.byteLength]);
      expect([...bytes.utf8Bytes(text)]).toEqual([...expected]);
      expect(bytes.utf8Text(expected)).toBe(new TextDecoder().decode(expected));
    }
  });

  it('writes text into bytes at an offset and reads a range of them back', () => {
    const target = bytes.allocBytes(32);
    const written = bytes.writeUtf8(target, 'é😀', 3);
    expect(written).toBe(6);
    expect(bytes.utf8Text(target, 3, 3 + written)).toBe('é😀');
  });

  it('copies bytes, views an ArrayBuffer, and writes base64', () => {
    const source = new Uint8Array([0, 1, 250, 255]);
    const copied = bytes.copyBytes(source);
    source[0] = 9;
    expect([...copied]).toEqual([0, 1, 250, 255]);
    expect([...bytes.copyBytes(new Uint8Array([7, 8]).buffer)]).toEqual([7, 8]);
    expect(bytes.toBase64(new Uint8Array([0, 1, 250, 255]))).toBe('AAH6/w==');
    const large = new Uint8Array(100_000).map((_, at) => at % 256);
    expect(bytes.toBase64(large)).toBe(Buffer.from(large).toString('base64'));
  });

  it('tells Node’s Buffer class only where the runtime has one', () => {
    expect(bytes.isNodeBufferClass(Uint8Array)).toBe(false);
    expect(bytes.isNodeBufferClass(Buffer)).toBe(bytes === onNode);
  });
});
