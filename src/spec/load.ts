/**
 * Reading render_spec.json, data frames and the other JSON a program leaves in
 * its work dir, through the file boundary: each file bounded in size and in
 * nesting depth before it is parsed (host-limits.ts).
 */
import { z } from 'zod';
import { readArtifactBytes } from '../sandbox/artifacts.js';
import { parseJsonBounded } from '../util/json-depth.js';
import { MAX_JSON_DEPTH, MAX_JSON_FILE_BYTES } from './host-limits.js';
import { RenderSpecSchema } from './schema.js';
import type { Frame, RenderSpec } from './schema.js';

/** The spec a run left, or a reason it is missing or malformed. */
export type SpecResult = { ok: true; spec: RenderSpec } | { ok: false; reason: string };

/** Reads JSON a program left in `workdir` (at most MAX_JSON_FILE_BYTES, MAX_JSON_DEPTH deep); throws `<name> …: reason`. */
export function readWorkdirJson(
  workdir: string,
  name: string,
  maxBytes = MAX_JSON_FILE_BYTES,
): unknown {
  const text = readArtifactBytes(workdir, name, maxBytes).toString('utf8');
  try {
    return parseJsonBounded(text, MAX_JSON_DEPTH);
  } catch (error) {
    throw new Error(`${name} is not usable JSON: ${(error as Error).message}`);
  }
}

/** Reads and validates `render_spec.json` in `workdir`. */
export function loadSpec(workdir: string): SpecResult {
  let text: string;
  try {
    text = readArtifactBytes(workdir, 'render_spec.json', MAX_JSON_FILE_BYTES).toString('utf8');
  } catch (error) {
    return { ok: false, reason: `no render_spec.json was written (${(error as Error).message})` };
  }
  let json: unknown;
  try {
    json = parseJsonBounded(text, MAX_JSON_DEPTH);
  } catch (error) {
    return {
      ok: false,
      reason: `render_spec.json is not usable JSON: ${(error as Error).message}`,
    };
  }
  const parsed = RenderSpecSchema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      reason: `render_spec.json does not match the schema:\n${z.prettifyError(parsed.error)}`,
    };
  return { ok: true, spec: parsed.data };
}

/** Parses one declaration's data file; throws with a readable reason when it is malformed or too deep. */
export function parseFrame(text: string, file: string): Frame {
  let json: unknown;
  try {
    json = parseJsonBounded(text, MAX_JSON_DEPTH);
  } catch (error) {
    throw new Error(`data file "${file}" is not usable JSON: ${(error as Error).message}`);
  }
  const frame = frameOf(json);
  if (!frame) throw new Error(`data file "${file}" is not a {columns, data} frame`);
  return frame;
}

/**
 * The frame `json` holds, or null when it is not one: FrameSchema's test written out, with the
 * same result as its parse (the two keys and nothing else). zod copies every row it checks, ~10 ms
 * for a report's 5,000-point scatters, all spent after the last query.
 */
export function frameOf(json: unknown): Frame | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { columns, data } = json as Record<string, unknown>;
  if (!Array.isArray(columns) || !columns.every((name) => typeof name === 'string')) return null;
  if (!Array.isArray(data) || !data.every((row) => Array.isArray(row))) return null;
  return { columns, data: data as unknown[][] };
}
