import { runChecker } from './run.js';

// The entry of bin/checker: one command line of this process, written to its stdout and stderr.
void runChecker(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
