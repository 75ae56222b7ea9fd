import type { ParseOptions as SwcParseOptions } from '@swc/core';

const typescriptExtensions = ['.ts', '.mts', '.cts', '.tsx'];

function getExtension(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash ? path.slice(dot).toLowerCase() : '';
}

/**
 * The swc configurations to try in order: JavaScript is parsed with JSX first, then without, then (a `.js` file, which
 * may be CommonJS) as a CommonJS script that may return at its top level (nock's tests/test_unix_socket.js returns
 * before its suite on Windows), then as TypeScript, which reads the annotations of Flow-typed JavaScript
 * (`function f(a: string): number`, parse-server's `// @flow` files) that no JavaScript parse accepts. A file none of
 * them reads keeps the first failure.
 */
export function getSwcOptions(path: string): SwcParseOptions[] {
  const extension = getExtension(path);
  if (typescriptExtensions.includes(extension)) {
    return [{ syntax: 'typescript', tsx: extension === '.tsx', decorators: true, target: 'es2022', comments: false }];
  }
  const isCommonJs = extension === '.cjs';
  const base = {
    syntax: 'ecmascript' as const,
    decorators: true,
    importAttributes: true,
    allowReturnOutsideFunction: isCommonJs,
    target: 'es2022' as const,
    comments: false,
    isModule: isCommonJs ? ('commonjs' as const) : ('unknown' as const),
  };
  const script = { ...base, jsx: false, allowReturnOutsideFunction: true, isModule: 'commonjs' as const };
  return [
    { ...base, jsx: true },
    { ...base, jsx: false },
    ...(extension === '.js' ? [script] : []),
    { syntax: 'typescript', tsx: false, decorators: true, target: 'es2022', comments: false },
  ];
}
