export { createResolver, type Resolver, type ResolverInput } from './create-resolver.js';
export { parsePnpmWorkspacePackages } from './workspaces.js';
