/** The name a mock target ends in: `proxy_bypass` of `requests.utils.proxy_bypass`. */
export function getPatchedName(specifier: string): string {
  return specifier.slice(specifier.lastIndexOf('.') + 1);
}

/**
 * Whether a test file's mock replaces one name of a module rather than the module: a Python patch
 * (`patch("requests.utils.proxy_bypass")`, `monkeypatch.setattr("app.pricing.rate", …)`) whose last part is neither the
 * module's file nor its package. The rest of the module runs for real, so the test still runs its code; a JavaScript
 * `vi.mock('./utils')` or `jest.mock(…)` replaces the whole module.
 */
export function isNamePatch(testFile: string, specifier: string, target: string): boolean {
  if (!testFile.endsWith('.py')) return false;
  const parts = target.replace(/\.py$/, '').split('/');
  const module = parts.at(-1) === '__init__' ? parts.at(-2) : parts.at(-1);
  return getPatchedName(specifier) !== module;
}
