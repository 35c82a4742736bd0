/**
 * Reads a V8 heap snapshot (`v8.writeHeapSnapshot`) into sizes by constructor: for each object's constructor (a
 * closure's function name, an internal object's kind), how many there are, their own bytes, and the bytes they
 * retain — what would be freed with them, from the dominator tree (Cooper, Harvey and Kennedy's iterative
 * algorithm; weak edges do not keep anything alive). As DevTools' summary view does, an object's retained bytes
 * count for its constructor only where no object of the same constructor dominates it, so nested ones are not
 * counted twice.
 */
import { readFileSync } from 'node:fs';

export interface ConstructorSize {
  /** The V8 node type of its objects (`object`, `closure`, `native`, ...). */
  readonly type: string;
  count: number;
  self: number;
  retained: number;
}

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[]];
      edge_fields: string[];
      edge_types: [string[]];
      location_fields?: string[];
    };
    node_count: number;
  };
  nodes: number[];
  edges: number[];
  strings: string[];
  locations?: number[];
}

/** The script and line a closure's function was written at (`file.js:12`), from its shared function info. */
function closureSites(data: Snapshot): (node: number) => string {
  const { meta, node_count: count } = data.snapshot;
  const width = meta.node_fields.length;
  const edgeWidth = meta.edge_fields.length;
  const edgeCountAt = meta.node_fields.indexOf('edge_count');
  const firstEdge = new Int32Array(count + 1);
  for (let node = 0; node < count; node++)
    firstEdge[node + 1] = firstEdge[node]! + data.nodes[node * width + edgeCountAt]! * edgeWidth;
  const named = meta.edge_types[0].flatMap((type, i) => (type === 'property' || type === 'internal' ? [i] : []));
  const follow = (node: number, name: string): number | undefined => {
    for (let edge = firstEdge[node]!; edge < firstEdge[node + 1]!; edge += edgeWidth)
      if (named.includes(data.edges[edge]!) && data.strings[data.edges[edge + 1]!] === name)
        return data.edges[edge + 2]! / width;
    return undefined;
  };
  const lines = new Map<number, number>();
  const locations = data.locations ?? [];
  const step = meta.location_fields?.length ?? 4;
  for (let i = 0; i < locations.length; i += step) lines.set(locations[i]! / width, locations[i + 2]! + 1);
  const root = `${process.cwd()}/`;
  return (node) => {
    const shared = follow(node, 'shared');
    const script =
      shared === undefined ? undefined : (follow(shared, 'script_or_debug_info') ?? follow(shared, 'script'));
    const file = script === undefined ? '?' : data.strings[data.nodes[script * width + 1]!]!.replace(root, '');
    return `${file}:${lines.get(node) ?? '?'}`;
  };
}

/** The group an object is counted in: what DevTools names it in its summary view, a closure with where it was written. */
function keyOf(type: string, name: string, site: () => string): string {
  if (type === 'object' || type === 'native') return name;
  if (type === 'closure') return `${name || '(anonymous)'}() ${site()}`.replace(/ \?:\?$/, '');
  if (type === 'array' || type === 'hidden' || type === 'synthetic') return `(${type}) ${name}`;
  return `(${type})`;
}

/** Each node's first edge index and its successors over edges that keep things alive. */
function graph(data: Snapshot) {
  const { meta, node_count: count } = data.snapshot;
  const nodeWidth = meta.node_fields.length;
  const edgeWidth = meta.edge_fields.length;
  const edgeCountAt = meta.node_fields.indexOf('edge_count');
  const weak = meta.edge_types[0].indexOf('weak');
  const successors: number[][] = Array.from({ length: count }, () => []);
  let edge = 0;
  for (let node = 0; node < count; node++) {
    const edges = data.nodes[node * nodeWidth + edgeCountAt]!;
    for (let i = 0; i < edges; i++, edge += edgeWidth) {
      if (data.edges[edge] !== weak) successors[node]!.push(data.edges[edge + 2]! / nodeWidth);
    }
  }
  return successors;
}

/** Depth-first postorder from the root (node 0): each reachable node's number, and the nodes in that order. */
function postorder(successors: readonly number[][]): { order: number[]; index: Int32Array } {
  const index = new Int32Array(successors.length).fill(-1);
  const seen = new Uint8Array(successors.length);
  const order: number[] = [];
  const stack: [number, number][] = [[0, 0]];
  seen[0] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const next = successors[top[0]]![top[1]++];
    if (next === undefined) {
      stack.pop();
      index[top[0]] = order.length;
      order.push(top[0]);
    } else if (!seen[next]) {
      seen[next] = 1;
      stack.push([next, 0]);
    }
  }
  return { order, index };
}

/** The immediate dominator of each reachable node (the root is its own). */
function dominators(successors: readonly number[][], order: readonly number[], index: Int32Array): Int32Array {
  const predecessors: number[][] = Array.from({ length: successors.length }, () => []);
  for (const node of order) for (const next of successors[node]!) predecessors[next]!.push(node);
  const idom = new Int32Array(successors.length).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (index[a]! < index[b]!) a = idom[a]!;
      while (index[b]! < index[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = order.length - 2; i >= 0; i--) {
      const node = order[i]!;
      let dominator = -1;
      for (const from of predecessors[node]!) {
        if (idom[from] === -1) continue;
        dominator = dominator === -1 ? from : intersect(from, dominator);
      }
      if (dominator !== -1 && idom[node] !== dominator) {
        idom[node] = dominator;
        changed = true;
      }
    }
  }
  return idom;
}

/** Sizes by constructor of the snapshot in `file`. */
export function summarizeHeap(file: string): Map<string, ConstructorSize> {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const { meta, node_count: count } = data.snapshot;
  const width = meta.node_fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => meta.node_fields.indexOf(field));
  const site = closureSites(data);
  const types = Array.from({ length: count }, (_, node) => meta.node_types[0][data.nodes[node * width + typeAt!]!]!);
  const keys = types.map((type, node) =>
    keyOf(type, data.strings[data.nodes[node * width + nameAt!]!]!, () => site(node)),
  );
  const self = (node: number) => data.nodes[node * width + sizeAt!]!;
  const successors = graph(data);
  const { order, index } = postorder(successors);
  const idom = dominators(successors, order, index);
  const retained = new Float64Array(count);
  const children: number[][] = Array.from({ length: count }, () => []);
  for (const node of order) {
    retained[node]! += self(node);
    if (node !== 0) {
      retained[idom[node]!]! += retained[node]!;
      children[idom[node]!]!.push(node);
    }
  }
  const sizes = new Map<string, ConstructorSize>();
  const onPath = new Map<string, number>();
  const stack: [number, boolean][] = [[0, false]];
  while (stack.length > 0) {
    const [node, leaving] = stack.pop()!;
    const key = keys[node]!;
    if (leaving) {
      onPath.set(key, onPath.get(key)! - 1);
      continue;
    }
    // The root stands for the whole heap, not for a constructor.
    if (node !== 0) {
      const size = sizes.get(key) ?? { type: types[node]!, count: 0, self: 0, retained: 0 };
      size.count++;
      size.self += self(node);
      if (!onPath.get(key)) size.retained += retained[node]!;
      sizes.set(key, size);
      onPath.set(key, (onPath.get(key) ?? 0) + 1);
      stack.push([node, true]);
    }
    for (const child of children[node]!) stack.push([child, false]);
  }
  return sizes;
}

/** What `after` holds more than `before`, by constructor, divided by `per` (the connections opened in between). */
export function heapGrowth(
  before: ReadonlyMap<string, ConstructorSize>,
  after: ReadonlyMap<string, ConstructorSize>,
  per: number,
): [string, ConstructorSize][] {
  return [...new Set([...before.keys(), ...after.keys()])].map((key) => {
    const size = after.get(key) ?? { ...before.get(key)!, count: 0, self: 0, retained: 0 };
    const was = before.get(key) ?? { ...size, count: 0, self: 0, retained: 0 };
    return [
      key,
      {
        type: size.type,
        count: (size.count - was.count) / per,
        self: (size.self - was.self) / per,
        retained: (size.retained - was.retained) / per,
      },
    ];
  });
}
