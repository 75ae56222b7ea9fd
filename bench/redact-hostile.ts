/**
 * The redactor's time on hostile 1 MB inputs (test/fixtures/hostile-redaction-inputs.ts) as a ratio to one plain regex
 * pass over the same input, measured on this machine at this moment: linear means a small constant factor; a quadratic
 * corner would be thousands of times slower. A measurement, not a test (tests never assert time).
 *
 *   node --import tsx bench/redact-hostile.ts [--runs 3]
 */
import { parseArgs } from 'node:util';
import { redactSecrets } from '../src/text/redact/redact.js';
import { HOSTILE_REDACTION_INPUTS } from '../test/fixtures/hostile-redaction-inputs.js';

function time(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Math.max(1, Number(values.runs) || 3);
const median = (samples: number[]): number => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
process.stdout.write('| input | bytes | plain regex pass ms | redactSecrets ms | ratio |\n| --- | ---: | ---: | ---: | ---: |\n');
let worst = 0;
for (const [name, input] of Object.entries(HOSTILE_REDACTION_INPUTS)) {
  const plain = median(Array.from({ length: runs }, () => time(() => input.replace(/[\s\S]{1,4}/g, (chunk) => chunk))));
  const redacted = median(Array.from({ length: runs }, () => time(() => redactSecrets(input))));
  const ratio = redacted / Math.max(plain, 0.001);
  worst = Math.max(worst, ratio);
  process.stdout.write(`| ${name} | ${input.length} | ${plain.toFixed(1)} | ${redacted.toFixed(1)} | ${ratio.toFixed(1)} |\n`);
}
process.stdout.write(`\nworst ratio ${worst.toFixed(1)} (median of ${runs} runs each)\n`);
