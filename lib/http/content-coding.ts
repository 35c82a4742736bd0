// Accept-Encoding (RFC 9110 §12.5.3). Knows nothing of compressors.

import { memoize } from './bounded-cache';
import { parseParameters, parseQuality, splitHeaderList, TCHAR } from './header-tokens';

const CODING = new RegExp(`^([${TCHAR}]+)`);

/** `x-gzip` and `x-compress` are equivalent to `gzip` and `compress` (RFC 9110 §8.4.1.1, §8.4.1.3). */
const ALIASES: Readonly<Record<string, string>> = { 'x-gzip': 'gzip', 'x-compress': 'compress' };

function parseUncached(header: string): ReadonlyMap<string, number> {
  const weights = new Map<string, number>();
  for (const member of splitHeaderList(header)) {
    const match = CODING.exec(member);
    const params = match && parseParameters(member.slice(match[0].length));
    if (!match || !params) continue; // malformed members are skipped
    const qParam = params.find(([name]) => name === 'q');
    const q = qParam === undefined ? 1 : parseQuality(qParam[1]);
    const name = match[1].toLowerCase();
    const coding = ALIASES[name] ?? name;
    if (q !== undefined && !weights.has(coding)) weights.set(coding, q);
  }
  return weights;
}

const parseCached = memoize(500, parseUncached);

/**
 * The supported coding of highest weight, ties to the server's order. Undefined without a header (only clients that
 * ask get compression), with nothing acceptable, or a preferred `identity`.
 */
export function negotiateEncoding(acceptEncoding: string | null | undefined, supported: readonly string[]) {
  if (acceptEncoding === null || acceptEncoding === undefined) return undefined;
  const weights = parseCached(acceptEncoding);
  const wildcard = weights.get('*') ?? 0;
  let best: string | undefined;
  let bestQ = 0;
  for (const coding of supported) {
    const name = coding.toLowerCase();
    if (name === 'identity') continue;
    const q = weights.get(ALIASES[name] ?? name) ?? wildcard;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  // Only an explicit identity competes: an unlisted one is acceptable but carries no preference.
  const identity = weights.get('identity');
  return identity !== undefined && identity > bestQ ? undefined : best;
}

/** No header takes none but identity, as {@link negotiateEncoding} never encodes without one. */
export function acceptsCoding(acceptEncoding: string | null | undefined, coding: string): boolean {
  if (acceptEncoding === null || acceptEncoding === undefined) return false;
  const weights = parseCached(acceptEncoding);
  const name = coding.toLowerCase();
  return (weights.get(ALIASES[name] ?? name) ?? weights.get('*') ?? 0) > 0;
}
