// Preloaded with `node --import` into a measured process: on exit, writes the process's own peak RSS and CPU
// times as JSON to the file named by CHECKER_BENCH_USAGE_FILE.
import { writeFileSync } from 'node:fs';

const target = process.env.CHECKER_BENCH_USAGE_FILE;
if (target !== undefined && target !== '') {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      target,
      JSON.stringify({ maxRssBytes: usage.maxRSS * 1024, userCpuMs: usage.userCPUTime / 1000, systemCpuMs: usage.systemCPUTime / 1000 }),
    );
  });
}
