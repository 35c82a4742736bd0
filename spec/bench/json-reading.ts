/**
 * JSON reading: what the framework's one JSON parser (`parseJsonBody`, with its prototype-poisoning check) costs over
 * a bare `JSON.parse` of the same text, for a typical 1 KB and 1 MB body, and for the same bodies holding a `\u`
 * escape (a client that escapes non-ASCII, as Python's json.dumps does), where secure-json-parse looks at the keys.
 */
import { parseJsonBody } from '../../lib/json/safe-json';

const ROUNDS = 25;

function fruit(n: number): object {
  return {
    id: n,
    name: `Apple ${n}`,
    description: 'A crisp, sweet fruit grown in orchards; keeps for weeks when cool.',
    price: 1.25 + n,
    tags: ['red', 'sweet', 'crunchy'],
    origin: { country: 'NZ', region: "Hawke's Bay" },
    stock: [
      { store: 'north', count: 12 },
      { store: 'south', count: 7 },
    ],
    organic: n % 2 === 0,
    harvested: '2026-03-14T09:30:00Z',
  };
}

/** A JSON object of about 1 KB, and an array of such fruits of about 1 MB. */
function bodies(): { readonly name: string; readonly text: string; readonly calls: number }[] {
  const one = JSON.stringify(fruit(1));
  const oneK = JSON.stringify({ ...fruit(1), notes: 'x'.repeat(1024 - one.length - 12) });
  const items: object[] = [];
  let oneM = '[]';
  for (let n = 0; oneM.length < 1024 * 1024; n++) {
    items.push(fruit(n));
    oneM = JSON.stringify(items);
  }
  const escaped = (text: string) => text.replace('Apple', 'Apple \\u00e9');
  return [
    { name: '1 KB object', text: oneK, calls: 20_000 },
    { name: '1 MB array', text: oneM, calls: 10 },
    { name: '1 KB with a \\u escape', text: escaped(oneK), calls: 20_000 },
    { name: '1 MB with a \\u escape', text: escaped(oneM), calls: 10 },
  ];
}

/** CPU microseconds per call (user + system: steadier than wall time on a shared machine). */
function cpuMicros(parse: (text: string) => unknown, text: string, calls: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) parse(text);
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / calls;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

export interface JsonReadingRow {
  readonly reading: string;
  readonly bytes: number;
  readonly jsonParseMicros: number;
  readonly parseJsonBodyMicros: number;
  /** The median of the rounds' ratios, the two parsers alternating so that drift hits both. */
  readonly ratio: number;
}

export function measureJsonReading(): JsonReadingRow[] {
  return bodies().map(({ name, text, calls }) => {
    const guarded = (body: string) => parseJsonBody(body);
    cpuMicros(JSON.parse, text, calls);
    cpuMicros(guarded, text, calls);
    const plain: number[] = [];
    const checked: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(cpuMicros(JSON.parse, text, calls));
      checked.push(cpuMicros(guarded, text, calls));
      ratios.push(checked.at(-1)! / plain.at(-1)!);
    }
    return {
      reading: name,
      bytes: text.length,
      jsonParseMicros: median(plain),
      parseJsonBodyMicros: median(checked),
      ratio: median(ratios),
    };
  });
}
