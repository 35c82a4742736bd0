import { isStreamingType } from '../../lib/http/streaming-types';
import { framingFor } from '../../lib/streaming/framing';

describe('framingFor', () => {
  it('frames SSE data, using the element type for non-strings', () => {
    expect(framingFor('text/event-stream').frame('OK')).toBe('data:OK\n\n');
    expect(framingFor('text/event-stream', 'application/json').frame('OK')).toBe('data:"OK"\n\n');
    expect(framingFor('text/event-stream').frame({ retry: 10, data: 'a\r\nb' })).toBe('retry:10\ndata:a\ndata:b\n\n');
  });

  it('frames NDJSON, JSON arrays and raw chunks', () => {
    expect(framingFor('application/stream+json').frame({ a: 1n })).toBe('{"a":"1"}\n');
    const array = framingFor('application/json');
    expect([array.start, array.frame(1), array.separator, array.frame(2), array.end].join('')).toBe('[1,2]');
    const bytes = new Uint8Array([1]);
    expect(framingFor('application/octet-stream').frame(bytes)).toBe(bytes);
    expect(framingFor('text/plain').frame(42)).toBe('42');
  });

  it('frames application/json-seq as RFC 7464 records: RECORD SEPARATOR, the JSON text, LINE FEED', () => {
    expect(framingFor('application/json-seq').frame({ a: 1 })).toBe('\x1e{"a":1}\n');
  });

  it('only SSE ends with an error event; others abort', () => {
    expect(framingFor('text/event-stream').errorFrame).toContain('event:error');
    expect(framingFor('application/x-ndjson').errorFrame).toBeUndefined();
  });
});

describe('isStreamingType', () => {
  it('recognises SSE, the NDJSON family and JSON text sequences only', () => {
    expect(
      ['text/event-stream', 'application/x-ndjson;charset=UTF-8', 'application/jsonl', 'application/json-seq'].every(
        isStreamingType,
      ),
    ).toBe(true);
    expect(isStreamingType('application/json')).toBe(false);
  });
});
