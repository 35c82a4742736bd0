// Parses duration settings (`500ms`, `15s`, `1m`, ISO-8601 `PT15S`, bare milliseconds) into milliseconds.

const UNIT_MILLISECONDS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const SIMPLE = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/i;
// ISO-8601 durations as java.time.Duration prints them (the form Quarkus also accepts); days at most.
const ISO = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;

/**
 * Reads a duration as a whole number of milliseconds: a bare integer is milliseconds (`0` usually means
 * "off"), a number with a unit (`ms`, `s`, `m`, `h`, `d`, case-insensitive, fractions allowed), or an
 * ISO-8601 duration such as `PT1M30S`. Returns `undefined` for anything else, including negatives.
 *
 * @example
 * parseDuration('15s');     // 15000
 * parseDuration('250');     // 250
 * parseDuration('PT1M30S'); // 90000
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return checked(Number(trimmed));
  const simple = SIMPLE.exec(trimmed);
  if (simple) return checked(Math.round(Number(simple[1]) * UNIT_MILLISECONDS[simple[2]!.toLowerCase()]!));
  const iso = ISO.exec(trimmed);
  if (!iso || trimmed.toUpperCase() === 'P' || trimmed.toUpperCase().endsWith('T')) return undefined;
  const [, days = '0', hours = '0', minutes = '0', seconds = '0'] = iso;
  return checked(
    Math.round(((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60_000 + Number(seconds) * 1_000),
  );
}

function checked(milliseconds: number): number | undefined {
  return Number.isSafeInteger(milliseconds) ? milliseconds : undefined;
}
