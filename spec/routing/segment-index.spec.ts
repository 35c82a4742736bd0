import { compilePathTemplate, type PathTemplate } from '../../lib/routing/path-template';
import { SegmentIndex } from '../../lib/routing/segment-index';

function indexOf(templates: string[]): SegmentIndex<{ template: PathTemplate }> {
  return new SegmentIndex(templates.map((template) => ({ template: compilePathTemplate(template) })));
}

function sources(index: SegmentIndex<{ template: PathTemplate }>, path: string): string[] {
  return index.candidates(path).map((entry) => entry.template.template);
}

describe('SegmentIndex', () => {
  it('splits on the segment after a shared application path', () => {
    const index = indexOf(['/api/users/{id}', '/api/orders/{id}', '/api/{kind}/{id}', '/api/users/{id}/roles']);
    expect(sources(index, '/api/users/1')).toEqual(['/api/users/{id}', '/api/{kind}/{id}', '/api/users/{id}/roles']);
    expect(sources(index, '/api/orders/1')).toEqual(['/api/orders/{id}', '/api/{kind}/{id}']);
    expect(sources(index, '/api/other/1')).toEqual(['/api/{kind}/{id}']);
    expect(sources(index, '/api')).toEqual(['/api/{kind}/{id}']);
  });

  it('picks the depth with the fewest candidates even when one template starts with a variable', () => {
    const many = Array.from({ length: 10 }, (_, i) => `/api/r${i}/{id}`);
    const index = indexOf(['/{anything: .*}', ...many]);
    expect(sources(index, '/api/r3/x')).toEqual(['/{anything: .*}', '/api/r3/{id}']);
    expect(sources(index, '/other')).toEqual(['/{anything: .*}']);
  });

  it('does not key on a segment that only starts with literal text', () => {
    const index = indexOf(['/a/b{x}', '/a/c/{x}', '/a/d/{x}']);
    expect(sources(index, '/a/bz')).toEqual(['/a/b{x}']);
    expect(sources(index, '/a/c/z')).toEqual(['/a/b{x}', '/a/c/{x}']);
  });

  it('does not split a regex containing a slash into segments', () => {
    const index = indexOf(['/f/{p: a/b}/x', '/f/{q}/y', '/g/{z}']);
    expect(sources(index, '/f/a/b/x')).toEqual(['/f/{p: a/b}/x', '/f/{q}/y']);
    expect(sources(index, '/g/1')).toEqual(['/g/{z}']);
  });

  it('gives nothing when there are no templates', () => {
    expect(sources(indexOf([]), '/a')).toEqual([]);
  });
});
