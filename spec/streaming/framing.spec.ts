import { framingFor, isStreamingType } from '../../lib/streaming/framing';

describe('framingFor', () => {
  it('frames SSE data, using the element type for non-strings', () => {
    expect(framingFor('text/event-stream').frame('OK', 0)).toBe('data:OK\n\n');
    expect(framingFor('text/event-stream', 'application/json').frame('OK', 0)).toBe('data:"OK"\n\n');
    expect(framingFor('text/event-stream').frame({ retry: 10, data: 'a\r\nb' }, 0)).toBe('retry:10\ndata:a\ndata:b\n\n');
  });

  it('frames NDJSON, JSON arrays and raw chunks', () => {
    expect(framingFor('application/stream+json').frame({ a: 1n }, 3)).toBe('{"a":"1"}\n');
    const array = framingFor('application/json');
    expect([array.start, array.frame(1, 0), array.frame(2, 1), array.end].join('')).toBe('[1,2]');
    const bytes = new Uint8Array([1]);
    expect(framingFor('application/octet-stream').frame(bytes, 0)).toBe(bytes);
    expect(framingFor('text/plain').frame(42, 0)).toBe('42');
  });

  it('only SSE ends with an error event; others abort', () => {
    expect(framingFor('text/event-stream').errorFrame).toContain('event:error');
    expect(framingFor('application/x-ndjson').errorFrame).toBeUndefined();
  });
});

describe('isStreamingType', () => {
  it('recognises SSE and the NDJSON family only', () => {
    expect(['text/event-stream', 'application/x-ndjson;charset=UTF-8', 'application/jsonl'].every(isStreamingType)).toBe(true);
    expect(isStreamingType('application/json')).toBe(false);
  });
});
