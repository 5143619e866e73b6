#!/usr/bin/env node
'use strict';
// Entry point of the `marker-research` command; the code lives in the esbuild bundle.
const path = require('node:path');
const fs = require('node:fs');
const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(bundle)) {
  process.stderr.write('marker-research: dist/cli.js is missing; run `npm run build` (or `npm ci`, which builds) first.\n');
  process.exit(1);
}
require(bundle).main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
