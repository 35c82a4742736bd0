/**
 * Import boundaries between lib/ folders (run by `npm run lint`, part of `npm test`).
 * Build-time and request-time code flow one way: decorators record, assembly compiles, pipeline runs.
 * Type-only imports count too (tsPreCompilationDeps): a circle or a climb made of `import type` is still one.
 */
// runtime/ (which runtime serves, Node built-ins loaded on first use) sits below everything, pure as the grammar.
const pure = '^lib/(http|routing|logging|runtime)/';

/**
 * The folders of lib/, lowest first: a folder imports only folders listed before it (lib/index.ts, the public
 * entry, stands above them all). So no import runs back up, and no circle of folders can form: a circle needs
 * at least one import from a folder to a later one. A new folder gets its place here (the rule
 * every-folder-has-a-layer refuses a folder that has none).
 */
const LAYERS = [
  // Which runtime this is, and Node's built-ins loaded when first used; pure grammar, routing, logging and decorator
  // metadata; then the settings they are read with.
  'runtime',
  'http',
  'routing',
  'logging',
  'metadata',
  'config',
  // The request model: what every per-request function reads and writes.
  'response',
  'context',
  'streaming',
  // What decorators record, errors and the value readers and writers.
  'decorators',
  'errors',
  'json',
  'convert',
  // The feature contract: what every feature declares and is given.
  'feature',
  'body',
  'providers',
  'multipart',
  'params',
  'health',
  // Features, each knowing only the model, the contract and the features below it.
  'security',
  'tracing',
  'broadcast',
  'metrics',
  'cors',
  'rate-limit',
  'compression',
  'conditions',
  'files',
  'static',
  'preconditions',
  'hal',
  'links',
  'openapi',
  'execution',
  'client',
  // The request path, the transports on it, and the build step that wires them.
  'pipeline',
  'websocket',
  'mcp',
  'server',
  'assembly',
];

/** One rule per folder: nothing it imports may stand above it. */
const layerRules = LAYERS.slice(0, -1).map((folder, i) => ({
  name: `layer-${folder}`,
  comment: `lib/${folder}/ may import only the folders listed before it in LAYERS (.dependency-cruiser.js).`,
  severity: 'error',
  from: { path: `^lib/${folder}/` },
  to: { path: `^lib/(${LAYERS.slice(i + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'every-folder-has-a-layer',
      comment: 'A folder of lib/ missing from LAYERS would escape the layer rules: give it its place there.',
      severity: 'error',
      from: { path: '^lib/[^/]+/', pathNot: `^lib/(${LAYERS.join('|')})/` },
      to: { path: '^lib/' },
    },
    {
      name: 'pure-grammar-stays-pure',
      comment: 'Header grammar, routing and logging are pure: they know nothing of decorators, pipelines or servers.',
      severity: 'error',
      from: { path: pure },
      to: { path: '^lib/', pathNot: pure },
    },
    {
      name: 'config-knows-only-grammar-and-logging',
      severity: 'error',
      from: { path: '^lib/config/' },
      to: { path: '^lib/', pathNot: ['^lib/config/', '^lib/http/', '^lib/logging/', '^lib/runtime/'] },
    },
    {
      name: 'decorators-only-record',
      comment: 'Decorators record metadata; they never reach into the build step, the pipeline or the server.',
      severity: 'error',
      from: { path: '^lib/decorators/' },
      to: { path: '^lib/(assembly|pipeline|server)/' },
    },
    {
      name: 'assembly-is-the-top',
      comment: 'Only the public entry point imports the assembly of an application: no module calls back up a layer.',
      severity: 'error',
      from: { path: '^lib/', pathNot: ['^lib/assembly/', '^lib/index\\.ts$'] },
      to: { path: '^lib/assembly/' },
    },
    {
      name: 'few-modules-know-hono',
      comment: 'Only the serving adapters know Hono; everything else speaks Web Request/Response and RxJS.',
      severity: 'error',
      from: { path: '^lib/', pathNot: ['^lib/(assembly|server|streaming|params)/'] },
      to: { path: 'node_modules/(hono|@hono/node-server)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^lib/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.d\\.ts$' },
  },
};
