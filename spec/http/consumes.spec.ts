import { rankConsumes } from '../../lib/http/media-type';
import { parseMediaType, type MediaType } from '../../lib/http/media-type';

const m = (text: string): MediaType => {
  const parsed = parseMediaType(text);
  if (parsed === undefined) throw new Error(`test fixture does not parse: ${text}`);
  return parsed;
};

describe('rankConsumes as the 415 test', () => {
  it('accepts a content type compatible with any consumed type, ignoring parameters', () => {
    expect(
      rankConsumes(m('application/json;charset=UTF-8'), [m('text/plain'), m('application/json')]),
    ).toBeGreaterThanOrEqual(0);
    expect(rankConsumes(m('text/csv'), [m('text/*')])).toBeGreaterThanOrEqual(0);
    expect(rankConsumes(m('image/png'), [m('*/*')])).toBeGreaterThanOrEqual(0);
  });

  it('rejects a content type nothing consumes (415)', () => {
    expect(rankConsumes(m('application/json'), [m('text/plain'), m('text/*')])).toBe(-1);
    expect(rankConsumes(m('application/json'), [])).toBe(-1);
  });

  it('does not treat +json types as application/json', () => {
    expect(rankConsumes(m('application/merge-patch+json'), [m('application/json')])).toBe(-1);
  });
});

describe('rankConsumes', () => {
  it('ranks application/json above application/* above */*', () => {
    const body = m('application/json');
    expect(rankConsumes(body, [m('application/json')])).toBeGreaterThan(rankConsumes(body, [m('application/*')]));
    expect(rankConsumes(body, [m('application/*')])).toBeGreaterThan(rankConsumes(body, [m('*/*')]));
    expect(rankConsumes(body, [m('*/*')])).toBeGreaterThanOrEqual(0);
  });

  it('uses the most specific compatible entry of a list', () => {
    expect(rankConsumes(m('text/plain'), [m('*/*'), m('text/plain'), m('text/*')])).toBe(2);
  });

  it('is -1 when nothing matches', () => {
    expect(rankConsumes(m('text/plain'), [m('application/json')])).toBe(-1);
  });
});
