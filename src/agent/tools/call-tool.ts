/**
 * One tool call, validated: an unknown name, arguments that are not JSON and
 * arguments the tool's zod schema rejects all come back as tool errors the
 * model can fix (STYLE.md rule 4). Only fatal problems throw (the data cannot
 * be read, the sandbox cannot start).
 */
import type { z } from 'zod';
import { findTool, toolNames } from './registry.js';
import type { AnyTool, AnyToolResult } from './registry.js';
import { toolError } from './tool.js';
import type { ToolContext } from './tool.js';

function schemaIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({
    path: i.path.map(String).join('.') || 'arguments',
    message: i.message,
  }));
}

/** Validates already-parsed arguments against the tool's schema, then executes it. */
export async function executeTool(
  tool: AnyTool,
  args: unknown,
  ctx: ToolContext,
): Promise<AnyToolResult> {
  const parsed = tool.schema.safeParse(args);
  if (!parsed.success) {
    const issues = schemaIssues(parsed.error);
    return toolError(
      `invalid arguments for ${tool.name}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      issues,
    );
  }
  return tool.execute(parsed.data, ctx);
}

/** Runs a call as the model sent it: the tool's name and its raw JSON arguments (empty means `{}`). */
export async function callTool(
  name: string,
  rawArguments: string,
  ctx: ToolContext,
): Promise<AnyToolResult> {
  const tool = findTool(name);
  if (!tool) return toolError(`unknown tool "${name}"; the tools are: ${toolNames().join(', ')}`);
  let args: unknown;
  try {
    args = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return toolError(
      `the arguments of ${tool.name} are not valid JSON (${reason}); send a JSON object like ${JSON.stringify(tool.example)}`,
    );
  }
  return executeTool(tool, args, ctx);
}
