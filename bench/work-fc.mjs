import { readFileSync } from 'node:fs';
const text = readFileSync(process.argv[2], 'utf8');
const d = JSON.parse(text);
const DEFER = (process.argv[3] ?? 'signals,functions,callables').split(',');
for (const e of Object.values(d.entries)) { if (!e.facts) continue; const lazy = {}; for (const k of DEFER) { lazy[k] = e.facts[k]; delete e.facts[k]; } e.deferred = JSON.stringify(lazy); }
const t2 = JSON.stringify(d);
console.log('size', (t2.length / 1e6).toFixed(1), 'MB');
for (let i = 0; i < 3; i++) { const s = performance.now(); const x = JSON.parse(t2); console.log('JSON.parse deferred form', (performance.now() - s).toFixed(0), 'ms'); }
for (let i = 0; i < 2; i++) { const s = performance.now(); const x = JSON.parse(text); console.log('JSON.parse original', (performance.now() - s).toFixed(0), 'ms'); }
