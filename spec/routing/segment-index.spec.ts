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
    expect(sources(index, '/api/users/1')).toEqual(['/api/users/{id}', '/api/{kind}/{id}']);
    expect(sources(index, '/api/users/1/roles')).toEqual(['/api/users/{id}/roles']);
    expect(sources(index, '/api/orders/1')).toEqual(['/api/orders/{id}', '/api/{kind}/{id}']);
    expect(sources(index, '/api/other/1')).toEqual(['/api/{kind}/{id}']);
    expect(sources(index, '/api')).toEqual([]);
  });

  it('offers only templates with as many slashes as the path', () => {
    const index = indexOf(['/r/{id}', '/r/{id: \\d+}/items', '/r/{id}/items/{item}']);
    expect(sources(index, '/r/1')).toEqual(['/r/{id}']);
    expect(sources(index, '/r/1/items')).toEqual(['/r/{id: \\d+}/items']);
    expect(sources(index, '/r/1/items/2')).toEqual(['/r/{id}/items/{item}']);
    expect(sources(index, '/r/1/items/2/3/4')).toEqual([]);
  });

  it('offers templates whose variables may span segments to paths with at least their slashes', () => {
    const index = indexOf(['/f/{path: .+}', '/f/{name}', '/f/{a}/{b: [0-9/]+}']);
    expect(sources(index, '/f/x')).toEqual(['/f/{path: .+}', '/f/{name}']);
    expect(sources(index, '/f/x/y/z')).toEqual(['/f/{path: .+}', '/f/{a}/{b: [0-9/]+}']);
    expect(sources(index, '/f')).toEqual([]);
  });

  it('offers every template of the bucket to a path with a trailing slash', () => {
    const index = indexOf(['/e/{x: [a-z]*}', '/e/{x}/{y}']);
    expect(sources(index, '/e/')).toEqual(['/e/{x: [a-z]*}', '/e/{x}/{y}']);
  });

  it('picks the depth with the fewest candidates even when one template starts with a variable', () => {
    const many = Array.from({ length: 10 }, (_, i) => `/api/r${i}/{id}`);
    const index = indexOf(['/{anything: .*}', ...many]);
    expect(sources(index, '/api/r3/x')).toEqual(['/{anything: .*}', '/api/r3/{id}']);
    expect(sources(index, '/other')).toEqual(['/{anything: .*}']);
  });

  it('does not key on a segment that only starts with literal text', () => {
    const index = indexOf(['/a/b{x}/z', '/a/c/{x}', '/a/d/{x}']);
    expect(sources(index, '/a/bz/z')).toEqual(['/a/b{x}/z']);
    expect(sources(index, '/a/c/z')).toEqual(['/a/b{x}/z', '/a/c/{x}']);
  });

  it('does not split a regex containing a slash into segments', () => {
    const index = indexOf(['/f/{p: a/b}/x', '/f/{q}/y', '/g/{z}/q', '/h/{z}']);
    expect(sources(index, '/f/a/b/x')).toEqual(['/f/{p: a/b}/x']);
    expect(sources(index, '/g/1/q')).toEqual(['/g/{z}/q']);
  });

  it('gives nothing when there are no templates', () => {
    expect(sources(indexOf([]), '/a')).toEqual([]);
    expect(sources(indexOf([]), '/')).toEqual([]);
  });
});
