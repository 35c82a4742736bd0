#!/usr/bin/env node
// `npm publish` runs this first (prepublishOnly): the registry's page resolves the README's links into docs/ against
// `repository`, and shows `homepage` and `bugs`, so a package without them must not be published. Takes the path of a
// package.json (default: the project's); exits 1 naming each missing field.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const path = process.argv[2] ?? join(__dirname, '..', 'package.json');
const manifest = JSON.parse(readFileSync(path, 'utf8'));
const url = (value) => (typeof value === 'string' ? value : value?.url);
const missing = ['repository', 'homepage', 'bugs'].filter(
  (field) => !/^(https?|git\+https):\/\//.test(url(manifest[field]) ?? ''),
);
if (missing.length > 0) {
  process.stderr.write(
    `Not published: package.json needs ${missing.join(', ')} (the project's public address), ` +
      `or the registry's page cannot link the README into docs/.\n`,
  );
  process.exit(1);
}
