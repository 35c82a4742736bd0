// A segment of several `{name}` variables beside a variable with a regex of its own (`{a}-{b}-{c: [a-z]+}`) is
// matched by a search that runs the application's regex on one candidate text at a time. The values must be those
// of the template's one regular expression, for every path; compared here on random templates and paths over a small
// alphabet (literals recur, most cuts are ambiguous) from fixed seeds. A crafted 16 KB segment must cost work linear
// in its length: as one regular expression its lazy groups tried every cut, each running the application's regex.
import { compilePathTemplate } from '../../lib/routing/path-template';
import { MixedSegmentMatcher, workLimit } from '../../lib/routing/mixed-segment-matcher';
import type { TemplatePart } from '../../lib/routing/segment-matcher';
import { SegmentedMatcher } from '../../lib/routing/segmented-matcher';

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const PLAIN = '[^/]+?';
const ALPHABET = ['a', '-', '.', 'b', '1'];
const OWN = [
  '\\d+',
  '[ab]+',
  '[ab-]+',
  '[a-]+?',
  'a*',
  '(b)?a',
  '(a|ab)(b?)',
  '[a1.-]*?',
  'a|a-b',
  '(?:a-)+',
  '[^/.]+',
];

/** The one regular expression the template compiled to before: each variable a group, literals escaped. */
function reference(parts: readonly TemplatePart[], regexes: readonly string[], trailingSlash = false): RegExp {
  let variable = 0;
  const source = parts.map((part) =>
    part === null ? `(${regexes[variable++]})` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  return new RegExp(`^${source.join('')}${trailingSlash ? '/?' : ''}$`);
}

/** A random segment: at least two `{name}`s and one variable with a regex of its own, or (`anyOwn`) any mix. */
function randomSegment(random: () => number, anyOwn: boolean): { parts: TemplatePart[]; regexes: string[] } {
  const pick = <T>(from: readonly T[]): T => from[Math.floor(random() * from.length)]!;
  const count = 3 + Math.floor(random() * 3);
  const regexes = Array.from({ length: count }, (_, i) => (anyOwn ? pick([PLAIN, ...OWN]) : i < 2 ? PLAIN : pick(OWN)));
  if (!anyOwn) regexes.sort(() => random() - 0.5);
  const parts: TemplatePart[] = random() < 0.3 ? [pick(ALPHABET)] : [];
  for (const _ of regexes) {
    parts.push(null);
    parts.push(Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(ALPHABET)).join(''));
  }
  if (random() < 0.3) parts.pop();
  return { parts, regexes };
}

function compare(seed: number, anyOwn: boolean): { differences: unknown[]; matched: number } {
  const random = seeded(seed);
  const pick = <T>(from: readonly T[]): T => from[Math.floor(random() * from.length)]!;
  const fill = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(ALPHABET)).join('');
  const differences: unknown[] = [];
  let matched = 0;
  for (let round = 0; round < 2000; round++) {
    const { parts, regexes } = randomSegment(random, anyOwn);
    const matcher = new MixedSegmentMatcher(parts, regexes, PLAIN);
    const regex = reference(parts, regexes);
    const wholes = regexes.map((own) => new RegExp(`^(?:${own})$`));
    // A value its variable's regex takes, when one of a few random texts is.
    const value = (variable: number) => {
      let text = fill();
      for (let tries = 0; tries < 20 && !wholes[variable]!.test(text); tries++) text = fill();
      return text;
    };
    for (let probe = 0; probe < 10; probe++) {
      // Half the texts are the template filled in (values may hold its literals), half any text.
      let variable = 0;
      const filled = () => parts.map((part) => part ?? value(variable++)).join('');
      const text = probe % 2 === 0 ? filled() : fill() + fill() + fill() + fill();
      const expected = regex.exec(text);
      const actual = matcher.exec(text);
      if (expected) matched++;
      if (JSON.stringify(expected && [...expected]) !== JSON.stringify(actual && [...actual]))
        differences.push({ parts, regexes, text, expected: expected && [...expected], actual: actual && [...actual] });
    }
  }
  return { differences, matched };
}

describe('MixedSegmentMatcher', () => {
  it('gives what the regular expression gives, on 20,000 random segments of two {name}s and a regex of its own', () => {
    const { differences, matched } = compare(11, false);
    expect(differences.slice(0, 5)).toEqual([]);
    expect(matched).toBeGreaterThan(2000);
  });

  it('gives what the regular expression gives, on 20,000 random segments of any mix of variables', () => {
    const { differences, matched } = compare(23, true);
    expect(differences.slice(0, 5)).toEqual([]);
    expect(matched).toBeGreaterThan(2000);
  });

  it('matches a template joining such a segment, one segment at a time, with the values of its regular expression', () => {
    const template = compilePathTemplate('/m/{a}-{b}-{c: [a-z]+}/{id: \\d+}');
    expect(template.regex).toBeInstanceOf(SegmentedMatcher);
    expect([...(template.regex.exec('/m/x-y-z-w/12/') ?? [])]).toEqual(['/m/x-y-z-w/12/', 'x', 'y-z', 'w', '12']);
    expect(template.regex.exec('/m/x-y-z-1/12')).toBeNull();
  });

  it('costs work linear in a crafted 16 KB segment that does not match, and in one that does', () => {
    const parts: TemplatePart[] = [null, '-', null, '-', null];
    const letters = new MixedSegmentMatcher(parts, [PLAIN, PLAIN, '[a-z]+'], PLAIN);
    const dashes = new MixedSegmentMatcher(parts, [PLAIN, PLAIN, '[a-z-]+'], PLAIN);
    const failing = 'a-'.repeat(8192) + '1';
    const fitting = 'a-'.repeat(8192) + 'z';
    // Twice the characters for a regex that runs to the end of the text from every candidate start, and no more.
    for (const [matcher, text] of [
      [letters, failing],
      [dashes, failing],
      [dashes, fitting],
    ] as const) {
      const { work } = matcher.measure(text);
      expect(work).toBeLessThanOrEqual(workLimit(text.length, parts.length) + text.length + 1);
    }
    expect(letters.measure(failing).match).toBeNull();
    expect(letters.measure(failing).work).toBeLessThan(20 * failing.length);
    expect([...(dashes.exec(fitting) ?? [])]).toEqual([fitting, 'a', 'a', 'a-'.repeat(8190) + 'z']);
    expect([...(letters.exec('a-'.repeat(8192) + 'z') ?? [])]).toEqual([
      'a-'.repeat(8192) + 'z',
      'a',
      'a-'.repeat(8191).slice(0, -1),
      'z',
    ]);
  });

  it("chooses, as the regular expression does, among a regex variable's thousand ends that let the rest match", () => {
    const text = '1-' + 'a-'.repeat(1000) + 'b';
    for (const own of ['[a-z-]+', '(?:a-|a)+?', '(?:a|a-)+', '[a-]*?']) {
      const matcher = new MixedSegmentMatcher([null, '-', null, '-', null], [PLAIN, own, PLAIN], PLAIN);
      const expected = reference([null, '-', null, '-', null], [PLAIN, own, PLAIN]).exec(text);
      const { match, work } = matcher.measure(text);
      expect([...(match ?? [])]).toEqual([...(expected ?? [])]);
      expect(work).toBeLessThan(10 * text.length);
    }
  });

  it('gives, over a whole path beside a regex that may match "/", what the regular expression gives', () => {
    const random = seeded(5);
    const pick = <T>(from: readonly T[]): T => from[Math.floor(random() * from.length)]!;
    const letters = ['a', '-', '/', 'b'];
    const spanning = ['.+', '.*?', '[a/]+', '(a/)?b', '[ab/-]+?', '(?:a|/)*'];
    const fill = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(letters)).join('');
    const differences: unknown[] = [];
    let matched = 0;
    for (let round = 0; round < 2000; round++) {
      const parts: TemplatePart[] = ['/'];
      const regexes: string[] = [];
      for (let n = 2 + Math.floor(random() * 4); n > 0; n--) {
        parts.push(null);
        regexes.push(random() < 0.6 ? PLAIN : pick(spanning));
        parts.push(Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(letters)).join(''));
      }
      if (random() < 0.3) parts.pop();
      const matcher = new MixedSegmentMatcher(parts, regexes, PLAIN, true);
      const regex = reference(parts, regexes, true);
      for (let probe = 0; probe < 10; probe++) {
        const text = probe % 2 === 0 ? parts.map((part) => part ?? fill()).join('') : `/${fill()}${fill()}${fill()}`;
        const expected = regex.exec(text);
        const actual = matcher.exec(text);
        if (expected) matched++;
        if (JSON.stringify(expected && [...expected]) !== JSON.stringify(actual && [...actual]))
          differences.push({
            parts,
            regexes,
            text,
            expected: expected && [...expected],
            actual: actual && [...actual],
          });
      }
    }
    expect(differences.slice(0, 5)).toEqual([]);
    expect(matched).toBeGreaterThan(2000);
  });

  it('matches a template of {name}s in a segment beside a regex that may match "/" without one regular expression', () => {
    const template = compilePathTemplate('/x/{a}-{b}-{c}/{rest: .+}');
    expect(template.regex).toBeInstanceOf(MixedSegmentMatcher);
    expect([...(template.regex.exec('/x/a-b-c-d/e/f/') ?? [])]).toEqual(['/x/a-b-c-d/e/f/', 'a', 'b', 'c-d', 'e/f/']);
    const crafted = '/x/' + 'a-'.repeat(4000);
    const { match, work } = (template.regex as MixedSegmentMatcher).measure(crafted);
    expect(match).toBeNull();
    expect(work).toBeLessThan(20 * crafted.length);
  });
});
