import { RestLinkId } from '../../lib';
import type { LinkTarget } from '../../lib/links/link-registry';
import { entityClass, linkIdProperty, makeLinks, templateValue } from '../../lib/links/make-links';

class Book {
  @RestLinkId()
  isbn = '978-0';
  id = 7;
  title = 'Dune';
}
class Paperback extends Book {}
class Plain {
  id = 3;
  slug: string | null = null;
}

const target = (template: string, rel: string, extra: Partial<LinkTarget> = {}): LinkTarget => ({
  rel,
  template,
  variables: [...template.matchAll(/\{(\w+)/g)].map((m) => m[1]),
  entityType: Book,
  ...extra,
});

describe('linkIdProperty', () => {
  it('finds the @RestLinkId property on the class or a superclass', () => {
    expect(linkIdProperty(Book)).toBe('isbn');
    expect(linkIdProperty(Paperback)).toBe('isbn');
    expect(linkIdProperty(Plain)).toBeUndefined();
  });
});

describe('templateValue', () => {
  it('fills {id} from the @RestLinkId property before an id property', () => {
    expect(templateValue(new Book(), 'id')).toBe('978-0');
    expect(templateValue(new Plain(), 'id')).toBe('3');
  });

  it('reads other variables from same-named properties, null and absent as unresolved', () => {
    expect(templateValue(new Book(), 'title')).toBe('Dune');
    expect(templateValue(new Plain(), 'slug')).toBeUndefined();
    expect(templateValue(new Plain(), 'missing')).toBeUndefined();
  });
});

describe('makeLinks', () => {
  it('makes absolute links carrying title and type only when set', () => {
    const links = makeLinks(
      [target('/books', 'list', { title: 'All books', type: 'application/json' }), target('/books/{id}', 'self')],
      'https://x.example',
      new Book(),
    );
    expect(links).toEqual([
      { href: 'https://x.example/books', rel: 'list', title: 'All books', type: 'application/json' },
      { href: 'https://x.example/books/978-0', rel: 'self' },
    ]);
  });

  it('leaves variables the entity has no value for as {name}, without their regex', () => {
    const links = makeLinks([target('/books/{title}/{edition: \\d+}', 'edition')], 'http://h', new Book());
    expect(links[0].href).toBe('http://h/books/Dune/{edition}');
  });

  it('percent-encodes filled values as one path segment', () => {
    const book = Object.assign(new Book(), { title: 'a b/c' });
    expect(makeLinks([target('/books/{title}', 'by-title')], 'http://h', book)[0].href).toBe(
      'http://h/books/a%20b%2Fc',
    );
  });

  it('keeps every variable unresolved without an entity', () => {
    expect(makeLinks([target('/books/{id}', 'self')], 'http://h')[0].href).toBe('http://h/books/{id}');
  });
});

describe('entityClass', () => {
  it('answers the instance class, or the declared type for plain objects', () => {
    expect(entityClass(new Paperback(), Book)).toBe(Paperback);
    expect(entityClass({ id: 1 }, Book)).toBe(Book);
    expect(entityClass(Object.create(null) as object, undefined)).toBeUndefined();
  });
});
