import { defineCommand } from 'citty';
import { runStdioServer } from '../../mcp/server.js';
import { cwdArg } from '../args.js';
import { resolveRepositoryRoot } from '../context.js';
import { readVersion } from '../version.js';

export default defineCommand({
  meta: { name: 'mcp', description: 'Start the local MCP server over stdio for the repository at --cwd (report-only tools; logs go to stderr)' },
  args: { ...cwdArg },
  async run({ args }) {
    await runStdioServer({ root: resolveRepositoryRoot(args.cwd), version: readVersion() });
  },
});
