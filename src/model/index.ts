export * from './diagnostic.js';
export * from './result.js';
export * from './scan.js';
export * from './facts.js';
export * from './change.js';
export * from './resolve.js';
export * from './env.js';
export * from './coverage.js';
