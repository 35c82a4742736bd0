import { parseAccept } from '../../lib/http/accept';
import { formatMediaType, parseMediaType, type MediaType } from '../../lib/http/media-type';
import { negotiate } from '../../lib/http/negotiate';

const types = (...texts: string[]): MediaType[] =>
  texts.map((text) => {
    const m = parseMediaType(text);
    if (m === undefined) throw new Error(`test fixture does not parse: ${text}`);
    return m;
  });

/** The chosen type as text, or undefined for 406. */
const choose = (accept: string | undefined, ...produces: string[]): string | undefined => {
  const result = negotiate(parseAccept(accept), types(...produces));
  return result && formatMediaType(result.type);
};

describe('negotiate', () => {
  it('picks the produced type the client asks for', () => {
    expect(choose('application/json', 'text/plain', 'application/json')).toBe('application/json');
    expect(choose('text/plain', 'text/plain', 'application/json')).toBe('text/plain');
  });

  it('picks the first produced type when the client accepts anything equally', () => {
    expect(choose(undefined, 'text/plain', 'application/json')).toBe('text/plain');
    expect(choose('*/*', 'application/json', 'text/plain')).toBe('application/json');
  });

  it('lets server quality qs decide when the client does not (A2)', () => {
    expect(choose(undefined, 'text/plain; qs=0', 'application/json; qs=1')).toBe('application/json');
    expect(choose('*/*', 'text/plain;qs=0.5', 'application/json;qs=0.9', 'text/html')).toBe('text/html');
  });

  it('ranks by client weight before server quality', () => {
    expect(choose('text/plain, application/json;q=0.5', 'text/plain;qs=0.1', 'application/json')).toBe('text/plain');
  });

  it('takes the weight from the most specific matching range', () => {
    expect(choose('text/plain;q=0.5, text/*;q=1', 'text/plain', 'text/html')).toBe('text/html');
    expect(choose('text/*;q=1, text/plain;q=0.5', 'text/plain', 'text/html')).toBe('text/html');
  });

  it('follows the RFC 9110 §12.5.1 weight table', () => {
    const accept = parseAccept(
      'text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, text/plain;format=fixed;q=0.4, */*;q=0.5',
    );
    const weight = (text: string): number | undefined => negotiate(accept, types(text))?.q;
    expect(weight('text/plain;format=flowed')).toBe(1);
    expect(weight('text/plain')).toBe(0.7);
    expect(weight('text/html')).toBe(0.3);
    expect(weight('image/jpeg')).toBe(0.5);
    expect(weight('text/plain;format=fixed')).toBe(0.4);
  });

  it('excludes types whose most specific range has q=0', () => {
    expect(choose('text/plain;q=0, text/*', 'text/plain', 'text/html')).toBe('text/html');
    expect(choose('*/*, application/json;q=0', 'application/json')).toBeUndefined();
  });

  it('returns undefined (406) when nothing produced is acceptable', () => {
    expect(choose('image/png', 'text/plain', 'application/json')).toBeUndefined();
    expect(choose('text/plain', ...[])).toBeUndefined();
  });

  it('treats a malformed Accept as */*', () => {
    expect(choose('blah', 'application/json')).toBe('application/json');
    expect(choose('/', 'text/plain')).toBe('text/plain');
  });

  it('accepts a produced type lacking a parameter the range names, below an exact match', () => {
    expect(choose('application/json;charset=utf-8', 'application/json')).toBe('application/json');
    expect(choose('text/plain;charset=utf-8', 'text/plain;charset=ISO-8859-1')).toBeUndefined();
  });

  it('keeps the produced parameters but strips q and qs', () => {
    expect(choose('*/*', 'text/plain;charset=UTF-8;qs=0.8')).toBe('text/plain;charset=UTF-8');
  });

  it('turns a wildcard produced type into the concrete range it meets', () => {
    expect(choose('application/json', '*/*')).toBe('application/json');
    expect(choose('text/html;level=1;q=0.9', 'text/*')).toBe('text/html');
  });

  it("keeps a wildcard entry's own parameters, never the range's, and ranks by them", () => {
    expect(choose('text/html;charset=utf-7', 'text/*')).toBe('text/html');
    expect(choose('text/plain', 'text/*;format=flowed;qs=0.5')).toBe('text/plain;format=flowed');
    expect(choose('text/plain;format=fixed', 'text/*;format=flowed')).toBeUndefined();
    expect(choose('text/plain;format=fixed, text/csv;q=0.5', 'text/*;format=flowed')).toBe('text/csv;format=flowed');
  });

  it('prefers a concrete candidate over a wildcard one, as JAX-RS does', () => {
    expect(choose('*/*, text/csv;q=0.1', '*/*')).toBe('text/csv');
    expect(choose('text/*, text/csv;q=0.1', 'text/*')).toBe('text/csv');
  });

  it('falls back to application/octet-stream or text/plain when both sides are wildcards', () => {
    expect(choose('*/*', '*/*')).toBe('application/octet-stream');
    expect(choose('application/*', '*/*')).toBe('application/octet-stream');
    expect(choose('text/*', '*/*')).toBe('text/plain');
    expect(choose(undefined, 'text/*')).toBe('text/plain');
    expect(choose('image/*', '*/*')).toBeUndefined();
    expect(choose('*/*, application/octet-stream;q=0', '*/*')).toBeUndefined();
  });

  it('reports the index of the chosen produced type and its weight', () => {
    const result = negotiate(parseAccept('application/json;q=0.8'), types('text/plain', 'application/json'));
    expect(result).toMatchObject({ index: 1, q: 0.8 });
  });

  it('returns the same frozen result for the same pair of arrays, and a fresh one for another list', () => {
    const accept = parseAccept('text/plain;q=0.9, application/json');
    const produces = types('text/plain', 'application/json');
    const first = negotiate(accept, produces);
    expect(negotiate(accept, produces)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(negotiate(accept, types('text/plain'))?.index).toBe(0);
    expect(negotiate(accept, types('image/png'))).toBeUndefined();
    expect(negotiate(accept, produces)?.index).toBe(1);
  });
});
