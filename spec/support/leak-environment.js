// Jest's Node environment, which names the spec file that left something running once its tests and hooks are done:
// a child process, a listening server, a timer still referenced. In band (CI's two cores) every spec file shares one
// process, so a leftover lives on into the next files and may hold Jest at the end; the global teardown then says
// only what holds it, this says which file left it (on stderr, for the run's log). Client sockets are not counted:
// `fetch` keeps idle connections in its pool for a few seconds by design.
const { relative } = require('node:path');
const { setTimeout: wait } = require('node:timers/promises');
const { TestEnvironment } = require('jest-environment-node');

const WATCHED = new Set(['ProcessWrap', 'TCPServerWrap', 'Timeout']);
/** How long the leftovers get to go (a close called in an afterAll ends a moment later). */
const SETTLE_MS = 1000;

/** How many of each watched kind of resource keep the process running now. */
function watched() {
  const counts = new Map();
  for (const kind of process.getActiveResourcesInfo())
    if (WATCHED.has(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** The kinds of which there are more now than `before`, with how many more. */
function added(before) {
  return [...watched()]
    .filter(([kind, count]) => count > (before.get(kind) ?? 0))
    .map(([kind, count]) => `${count - (before.get(kind) ?? 0)} ${kind}`);
}

class LeakEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.rootDir = config.projectConfig.rootDir;
  }

  async setup() {
    await super.setup();
    this.before = watched();
  }

  async teardown() {
    const deadline = Date.now() + SETTLE_MS;
    while (added(this.before).length > 0 && Date.now() < deadline) await wait(50);
    const left = added(this.before);
    if (left.length > 0)
      process.stderr.write(
        `\n${relative(this.rootDir, this.testPath)} left running after its tests: ${left.join(', ')}\n`,
      );
    await super.teardown();
  }
}

module.exports = LeakEnvironment;
