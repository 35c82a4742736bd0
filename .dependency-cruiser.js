/**
 * Import boundaries between lib/ folders (run by `npm run lint`, part of `npm test`).
 * Build-time and request-time code flow one way: decorators record, assembly compiles, pipeline runs.
 * Type-only imports count too (tsPreCompilationDeps): a circle or a climb made of `import type` is still one.
 */
// runtime/ (which runtime serves, Node built-ins loaded on first use) sits below everything, pure as the grammar.
const pure = '^lib/(http|routing|logging|runtime)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
