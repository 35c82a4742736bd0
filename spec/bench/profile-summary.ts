/** Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and lists where the self time goes, by function and by area. */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A short place for a frame: the path from `lib/`, `node_modules/<pkg>` or `node:` on, plus the line. */
function place(url: string, line: number): string {
  const path = url.replace(/^file:\/\//, '');
  const short = /(?:dist\/)?((?:lib|spec)\/.*)$/.exec(path)?.[1] ?? /node_modules\/(.*)$/.exec(path)?.[1] ?? path;
  return short === '' ? '(native)' : `${short}:${line + 1}`;
}

/** The area a frame belongs to: an rxrest folder, a package, Node internals, or V8 itself. */
function area(url: string, functionName: string): string {
  const lib = /\/lib\/([\w-]+)\//.exec(url);
  if (lib && !url.includes('node_modules')) return `rxrest lib/${lib[1]}`;
  const pkg = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  if (url.startsWith('node:')) return 'node internals';
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)' || functionName === '(program)') return functionName;
  return url === '' ? 'V8 builtins/native' : 'other';
}

function percentTable(title: string, totals: Map<string, number>, all: number, top: number): string {
  const rows = [...totals].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [title, ...rows.map(([key, micros]) => `  ${((100 * micros) / all).toFixed(1).padStart(5)}%  ${key}`)].join(
    '\n',
  );
}

const keyOf = (frame: ProfileNode['callFrame']): string =>
  `${place(frame.url, frame.lineNumber)}  ${frame.functionName || '(anonymous)'}`;

const add = (totals: Map<string, number>, key: string, micros: number): void =>
  void totals.set(key, (totals.get(key) ?? 0) + micros);

/** Frames worth an inclusive figure: rxrest's own, Hono's and its Node adapter's, and the bench servers'. */
const framework = (url: string, functionName: string): boolean =>
  /^(rxrest|hono$|@hono\/node-server$)/.test(area(url, functionName)) || url.includes('/spec/bench/servers/');

/** Time under each framework function (itself and what it calls), counted once per sample even when recursive. */
function inclusiveFramework(profile: CpuProfile, byId: ReadonlyMap<number, ProfileNode>): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame && framework(frame.url, frame.functionName)) seen.add(keyOf(frame));
    }
    for (const key of seen) add(totals, key, profile.timeDeltas[index] ?? 0);
  });
  return totals;
}

/** Self time by area and by function, and inclusive time of rxrest functions, as percentages of busy samples. */
export function summarizeProfile(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)?.callFrame;
    const micros = profile.timeDeltas[index] ?? 0;
    // The first delta spans the profiler's own start-up, not the load.
    if (!frame || frame.functionName === '(idle)' || index === 0) return;
    busy += micros;
    add(byFunction, keyOf(frame), micros);
    add(byArea, area(frame.url, frame.functionName), micros);
  });
  return [
    percentTable(`Self time by area (${(busy / 1e6).toFixed(1)} s busy)`, byArea, busy, 20),
    percentTable(`Self time by function (top ${top})`, byFunction, busy, top),
    percentTable(`Inclusive time of framework functions (top ${top})`, inclusiveFramework(profile, byId), busy, top),
  ].join('\n\n');
}
