// Preloaded with `node --import` into a checker child process: the disk under `.checker/local/` is full. Every
// write into a file opened there and every new folder there fails with ENOSPC, as on a full filesystem where
// creating a name still works but no data block can be had. Reads, renames and unlinks still work. Nothing
// outside `.checker/local/` is touched, so git and the repository stay readable. Worker threads (the MCP server's
// tool worker) get the same full disk: each one imports this module before its own entry.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const fsp = require('node:fs/promises');
const fs = require('node:fs');
const workerThreads = require('node:worker_threads');
const isLocal = (path) => String(path).includes('/.checker/local/') || String(path).endsWith('/.checker/local');
const noSpace = (syscall) =>
  Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), { code: 'ENOSPC', errno: -28, syscall });
const isWrite = (flags) =>
  typeof flags === 'number'
    ? (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0
    : typeof flags === 'string' && /[wa+]/.test(flags);

const { open, writeFile, appendFile, mkdir } = fsp;
fsp.open = async (path, flags, mode) => {
  const handle = await open(path, flags, mode);
  if (isLocal(path) && isWrite(flags)) {
    handle.writeFile = async () => {
      throw noSpace('write');
    };
    handle.write = async () => {
      throw noSpace('write');
    };
  }
  return handle;
};
fsp.writeFile = async (path, ...rest) => {
  if (isLocal(path)) throw noSpace('write');
  return writeFile(path, ...rest);
};
fsp.appendFile = async (path, ...rest) => {
  if (isLocal(path)) throw noSpace('write');
  return appendFile(path, ...rest);
};
fsp.mkdir = async (path, options) => {
  if (isLocal(path) && !fs.existsSync(path)) throw noSpace('mkdir');
  return mkdir(path, options);
};

const { Worker } = workerThreads;
const self = JSON.stringify(import.meta.url);
workerThreads.Worker = class FullDiskWorker extends Worker {
  constructor(entry, options = {}) {
    const code =
      options.eval === true
        ? `import(${self}).then(() => { ${entry} });`
        : `import(${self}).then(() => import(${JSON.stringify(String(entry instanceof URL ? entry.href : new URL(entry, 'file:///').href))}));`;
    super(code, { ...options, eval: true });
  }
};
syncBuiltinESMExports();
