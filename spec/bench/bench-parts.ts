/** The parts of `npm run bench` (`--only=<part>`): the script runs them, and the docs spec checks the benchmarks page names them. */
export const PARTS = [
  'load',
  'streaming',
  'multipart',
  'json',
  'openapi',
  'metrics',
  'workers',
  'client',
  'broadcast',
  'ingest',
  'http2',
  'security',
  'websocket',
  'tracing',
  'mcp',
  'capacity',
  'runtimes',
  'cachegrind',
] as const;
export type Part = (typeof PARTS)[number];
