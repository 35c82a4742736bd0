// Templates with several variables in a segment are matched without a regular expression, in linear time: the values
// must be those the regular expression of lazy `([^/]+?)` variables gives, for every path. Compared here on random
// templates and paths over a small alphabet (so that literals recur and most cuts are ambiguous), from a fixed seed.
import { compilePathTemplate } from '../../lib/routing/path-template';
import { MixedSegmentMatcher } from '../../lib/routing/mixed-segment-matcher';
import { SegmentMatcher, type TemplatePart } from '../../lib/routing/segment-matcher';
import { SegmentedMatcher } from '../../lib/routing/segmented-matcher';

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const ALPHABET = ['a', '-', '.', '/', 'b'];

function reference(parts: readonly TemplatePart[], trailingSlash: boolean, regexes?: readonly string[]): RegExp {
  let variable = 0;
  const source = parts.map((part) =>
    part === null ? `(${regexes?.[variable++] ?? '[^/]+?'})` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  return new RegExp(`^${source.join('')}${trailingSlash ? '/?$' : '$'}`);
}

describe('SegmentMatcher', () => {
  it('gives what the lazy regular expression gives, on 20,000 random templates and paths', () => {
    const random = seeded(42);
    const pick = (): string => ALPHABET[Math.floor(random() * ALPHABET.length)];
    const differences: unknown[] = [];
    let matched = 0;
    for (let round = 0; round < 2000; round++) {
      const parts: TemplatePart[] = ['/'];
      for (let n = 1 + Math.floor(random() * 5); n > 0; n--) {
        parts.push(null);
        parts.push(Array.from({ length: 1 + Math.floor(random() * 2) }, pick).join(''));
      }
      if (random() < 0.3) parts.pop();
      const matcher = new SegmentMatcher(parts, true);
      const regex = reference(parts, true);
      for (let probe = 0; probe < 10; probe++) {
        // Half the paths are the template filled in (values may hold its literals), half any text.
        const filled = parts.map((part) => part ?? Array.from({ length: 1 + Math.floor(random() * 3) }, pick).join(''));
        const path =
          probe % 2 === 0 ? filled.join('') : '/' + Array.from({ length: Math.floor(random() * 14) }, pick).join('');
        const expected = regex.exec(path);
        const actual = matcher.exec(path);
        if (expected) matched++;
        if (JSON.stringify(expected && [...expected]) !== JSON.stringify(actual && [...actual]))
          differences.push({ parts, path, expected: expected && [...expected], actual });
      }
    }
    expect(differences.slice(0, 5)).toEqual([]);
    expect(matched).toBeGreaterThan(3000);
  });

  it('gives, one segment at a time beside regexes of their own, what the whole regular expression gives', () => {
    const random = seeded(7);
    const pick = <T>(from: readonly T[]): T => from[Math.floor(random() * from.length)]!;
    const owns = ['[^/]+?', '[^/]+?', '\\d+', '[ab]+', 'a*', '(b)?a', '[a1-]+?', '[^/]+', '[^-/]+?'];
    const differences: unknown[] = [];
    let matched = 0;
    for (let round = 0; round < 2000; round++) {
      const parts: TemplatePart[] = ['/'];
      const regexes: string[] = [];
      for (let n = 1 + Math.floor(random() * 5); n > 0; n--) {
        parts.push(null);
        regexes.push(pick(owns));
        parts.push(Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(ALPHABET)).join(''));
      }
      if (random() < 0.3) parts.pop();
      const matcher = new SegmentedMatcher(parts, regexes, '[^/]+?', true);
      const regex = reference(parts, true, regexes);
      for (let probe = 0; probe < 10; probe++) {
        const fill = () =>
          Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick([...ALPHABET, '1'])).join('');
        const path = probe % 2 === 0 ? parts.map((part) => part ?? fill()).join('') : `/${fill()}${fill()}${fill()}`;
        const expected = regex.exec(path);
        const actual = matcher.exec(path);
        if (expected) matched++;
        if (JSON.stringify(expected && [...expected]) !== JSON.stringify(actual && [...actual]))
          differences.push({ parts, regexes, path, expected: expected && [...expected], actual });
      }
    }
    expect(differences.slice(0, 5)).toEqual([]);
    expect(matched).toBeGreaterThan(1000);
  });

  it('is the matcher of a template with two variables in a segment, and gives its values', () => {
    const template = compilePathTemplate('/tags/{owner}-{repo}-{tag}');
    expect(template.regex).toBeInstanceOf(SegmentMatcher);
    expect([...(template.regex.exec('/tags/ada-engine-v1-2/') ?? [])]).toEqual([
      '/tags/ada-engine-v1-2/',
      'ada',
      'engine',
      'v1-2',
    ]);
    expect(template.regex.test('/tags/ada-engine')).toBe(false);
    expect(compilePathTemplate('/tags/{owner}/{repo}').regex).toBeInstanceOf(RegExp);
    expect(compilePathTemplate('/tags/{owner}-{repo: .+}').regex).toBeInstanceOf(MixedSegmentMatcher);
    expect(compilePathTemplate('/tags/{owner}-{repo: (?=a).+}').regex).toBeInstanceOf(RegExp);
    expect(compilePathTemplate('/tags/{owner}-{repo}/{id: \\d+}').regex).toBeInstanceOf(SegmentedMatcher);
  });
});
