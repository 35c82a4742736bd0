import { parseTemplate, TemplateError } from '../../lib/routing/template-parser';

describe('parseTemplate', () => {
  it('splits literal text and variables, trimming names and regexes', () => {
    expect(parseTemplate('/a/{ id : \\d{1,3} }/b{c}')).toEqual([
      { kind: 'literal', text: '/a/' },
      { kind: 'variable', name: 'id', regex: '\\d{1,3}' },
      { kind: 'literal', text: '/b' },
      { kind: 'variable', name: 'c', regex: undefined },
    ]);
  });

  it('returns no tokens for an empty template', () => {
    expect(parseTemplate('')).toEqual([]);
  });

  it('names the template given for messages, not the text parsed', () => {
    const error = (() => {
      try {
        parseTemplate('/x/{', 'x/{/');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as TemplateError).template).toBe('x/{/');
    expect((error as TemplateError).problem).toBe(`unclosed '{' in "{"`);
  });

  it('splits a regex at its first colon only', () => {
    expect(parseTemplate('{t: a:b}')).toEqual([{ kind: 'variable', name: 't', regex: 'a:b' }]);
  });
});
