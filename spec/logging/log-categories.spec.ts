import { LOG_CATEGORIES } from '../../lib/logging/log-level';

describe('LOG_CATEGORIES', () => {
  it('names rxrest.* categories, each with a description', () => {
    const entries = Object.entries(LOG_CATEGORIES);
    expect(entries.length).toBeGreaterThan(5);
    for (const [name, description] of entries) {
      expect(name).toMatch(/^rxrest\.[a-z]+$/);
      expect(description.length).toBeGreaterThan(10);
    }
    expect(Object.keys(LOG_CATEGORIES)).toEqual(
      expect.arrayContaining(['rxrest.params', 'rxrest.errors', 'rxrest.build']),
    );
  });
});
