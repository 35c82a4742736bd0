import { expandTemplate } from '../../lib/routing/expand-template';
import { TemplateError } from '../../lib/routing/template-parser';

describe('expandTemplate', () => {
  it('fills variables with percent-encoded values and leaves unknown ones as {name}', () => {
    const values: Record<string, string> = { id: '42', slug: 'a b/c;d' };
    expect(expandTemplate('/records/{id: \\d+}/{slug}/{other: .+}', (name) => values[name])).toBe(
      '/records/42/a%20b%2Fc%3Bd/{other}',
    );
  });

  it('encodes UTF-8 and keeps characters that RFC 3986 allows in a segment', () => {
    expect(expandTemplate('/{v}', () => "é:@$&+,=!*()'~-._")).toBe("/%C3%A9:@$&+,=!*()'~-._");
    expect(expandTemplate('/{v}', () => '%?#')).toBe('/%25%3F%23');
  });

  it('replaces a lone surrogate instead of throwing', () => {
    expect(expandTemplate('/{v}', () => 'a\uD800b')).toBe('/a%EF%BF%BDb');
  });

  it('keeps literal text as written and rejects a malformed template', () => {
    expect(expandTemplate('api/{x}/end', () => 'v')).toBe('api/v/end');
    expect(() => expandTemplate('/{x', () => 'v')).toThrow(TemplateError);
  });
});
