/**
 * The registry of the tools deep mode and the MCP server offer: a
 * typed list, lookup by name, and the tool specs sent to the model, whose
 * JSON schemas are derived from each tool's zod schema (never hand-written).
 */
import { z } from 'zod';
import type { ToolSpec } from '../../llm/index.js';
import { executeAnalysisTool } from './execute-analysis.js';
import { finalAnswerTool } from './final-answer.js';
import { getDataInfoTool } from './get-data-info.js';
import { planAnalysisTool } from './plan-analysis.js';
import { runCodeTool } from './run-code.js';
import { runSqlTool } from './run-sql.js';
import type { Tool, ToolErrorDisplay, ToolResult } from './tool.js';

/** Every tool, in the order the model sees them. */
export const TOOLS = [
  getDataInfoTool,
  runCodeTool,
  planAnalysisTool,
  executeAnalysisTool,
  finalAnswerTool,
] as const;

/** Every tool of the registry: deep mode's and run_sql, which the MCP server offers on its engine. */
export const ALL_TOOLS = [...TOOLS, runSqlTool] as const;

/** One of the registry's tools, with its own types. */
export type RegisteredTool = (typeof ALL_TOOLS)[number];

/** A tool name the model may call. */
export type ToolName = RegisteredTool['name'];

/** What a person sees of any call: one of the tools' display payloads, or a tool error. */
export type ToolDisplay =
  Awaited<ReturnType<RegisteredTool['execute']>>['forDisplay'] | ToolErrorDisplay;

/** A tool with its argument type erased; call it through call-tool.ts, which validates against its schema first. */
export type AnyTool = Tool<ToolName, z.ZodType, ToolDisplay>;

/** The result of any call. */
export type AnyToolResult = ToolResult<ToolDisplay>;

/** The tool names, in order. */
export function toolNames(): ToolName[] {
  return TOOLS.map((t) => t.name);
}

/** The tool called `name`, or undefined when there is none. */
export function findTool(name: string): AnyTool | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** The JSON schema of a tool's arguments, derived from its zod schema (without the `$schema` key). */
export function parametersOf(tool: Pick<AnyTool, 'schema'>): Record<string, unknown> {
  const { $schema: _drop, ...parameters } = z.toJSONSchema(tool.schema);
  return parameters;
}

/** The tool specs sent to the model. */
export function toolSpecs(): ToolSpec[] {
  return TOOLS.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: parametersOf(tool),
  }));
}
