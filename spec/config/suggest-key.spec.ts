import { editDistance, suggestKey } from '../../lib/config/resolve-config';

const KEYS = ['framework.http.port', 'framework.http.host', 'framework.rest.fail-on-duplicate'];

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('suggestKey', () => {
  it('suggests the closest known key for a typo', () => {
    expect(suggestKey('framework.http.prot', KEYS)).toBe('framework.http.port');
    expect(suggestKey('framework.rest.fail-on-duplicates', KEYS)).toBe('framework.rest.fail-on-duplicate');
  });

  it('suggests nothing when no key is plausibly meant', () => {
    expect(suggestKey('framework.something.else.entirely', KEYS)).toBeUndefined();
  });
});
