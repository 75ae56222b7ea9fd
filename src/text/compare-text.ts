/** Orders strings by UTF-16 code units: locale-independent, so output does not depend on the machine. */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
