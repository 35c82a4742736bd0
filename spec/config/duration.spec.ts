import { parseDuration } from '../../lib/config/duration';

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['250', 250],
    ['500ms', 500],
    ['15s', 15_000],
    ['1.5s', 1_500],
    ['1m', 60_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['15S', 15_000],
    [' 3s ', 3_000],
    ['PT15S', 15_000],
    ['PT1M30S', 90_000],
    ['pt0.5s', 500],
    ['P1DT1H', 90_000_000],
  ])('reads %j as %d ms', (text, expected) => {
    expect(parseDuration(text)).toBe(expected);
  });

  it.each(['', '-1', '-5s', '5 minutes', '1.5', 's', 'P', 'PT', '5x', '1e3', '99999999999999999999'])(
    'rejects %j',
    (text) => {
      expect(parseDuration(text)).toBeUndefined();
    },
  );
});
