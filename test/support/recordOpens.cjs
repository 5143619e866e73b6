'use strict';
// Preload (`node --require test/support/recordOpens.cjs …`): appends the path of every file the
// process opens through `fs` — open, openSync, readFile, readFileSync, createReadStream,
// promises.open, promises.readFile — one line each, to the file named by $MR_RECORD_OPENS.
// Calls given a file descriptor are not recorded (the open that made it was). The log is written
// with writeSync on a descriptor opened before anything is patched, so recording opens nothing.
const fs = require('node:fs');
const path = require('node:path');

const log = process.env.MR_RECORD_OPENS;
if (log) {
  const fd = fs.openSync(log, 'a');
  const record = (p) => {
    let file;
    if (typeof p === 'string') file = p;
    else if (Buffer.isBuffer(p)) file = p.toString();
    else if (p instanceof URL && p.protocol === 'file:') file = require('node:url').fileURLToPath(p);
    else return;
    fs.writeSync(fd, `${path.resolve(file)}\n`);
  };
  const wrap = (owner, name) => {
    const original = owner[name];
    owner[name] = function recorded(p, ...rest) {
      record(p);
      return original.call(this, p, ...rest);
    };
  };
  for (const name of ['open', 'openSync', 'readFile', 'readFileSync', 'createReadStream']) wrap(fs, name);
  for (const name of ['open', 'readFile']) wrap(fs.promises, name);
}
