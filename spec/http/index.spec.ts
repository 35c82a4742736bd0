import * as http from '../../lib/http';

describe('lib/http index', () => {
  it('exports the public functions and classes of the folder', () => {
    const expected = [
      'EntityTag',
      'NewCookie',
      'evaluatePreconditions',
      'formatCacheControl',
      'formatContentRange',
      'formatHttpDate',
      'formatLink',
      'formatMediaType',
      'isCompatible',
      'isConcrete',
      'isJsonMediaType',
      'isToken',
      'matchesContentType',
      'mediaType',
      'negotiate',
      'negotiateEncoding',
      'parseAccept',
      'parseCookieHeader',
      'parseEntityTagList',
      'parseHttpDate',
      'parseLinkHeader',
      'parseMediaType',
      'parseRange',
      'parseSize',
      'quote',
      'quoteIfNeeded',
      'rankConsumes',
      'specificity',
      'splitHeaderList',
      'truncateToSeconds',
      'withoutParams',
    ];
    expect(Object.keys(http).sort()).toEqual(expected.sort());
  });
});
