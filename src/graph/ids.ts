/** Stable node ids (design.md, "The knowledge graph"): the evidence ids every report cites. */
export const toFileId = (path: string): string => `file:${path}`;
export const toExportId = (path: string, name: string): string => `export:${path}#${name}`;
export const toRouteId = (method: string, path: string): string => `route:${method} ${path}`;
export const toTestId = (path: string, titlePath: readonly string[]): string => `test:${path}#${titlePath.join(' > ')}`;
export const toOwnerId = (handle: string): string => `owner:${handle}`;
export const toDecisionId = (path: string): string => `decision:${path}`;
export const toMemoryId = (path: string, id: string): string => `memory:${path}#${id}`;
export const toContractId = (id: string): string => `contract:${id}`;
export const toPackageId = (name: string): string => `package:${name}`;
export const toSkillId = (name: string): string => `skill:${name}`;
export const toCheckId = (name: string): string => `check:${name}`;
