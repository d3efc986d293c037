/** Reading render_spec.json and data frames from a work dir, through the file boundary. */
import { z } from 'zod';
import { readArtifact } from '../sandbox/artifacts.js';
import { FrameSchema, RenderSpecSchema } from './schema.js';
import type { Frame, RenderSpec } from './schema.js';

/** The spec a run left, or a reason it is missing or malformed. */
export type SpecResult = { ok: true; spec: RenderSpec } | { ok: false; reason: string };

/** Reads and validates `render_spec.json` in `workdir`. */
export function loadSpec(workdir: string): SpecResult {
  let text: string;
  try {
    text = readArtifact(workdir, 'render_spec.json');
  } catch (error) {
    return { ok: false, reason: `no render_spec.json was written (${(error as Error).message})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `render_spec.json is not JSON: ${(error as Error).message}` };
  }
  const parsed = RenderSpecSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `render_spec.json does not match the schema:\n${z.prettifyError(parsed.error)}` };
  return { ok: true, spec: parsed.data };
}

/** Reads one declaration's data frame; throws with a readable reason when refused or malformed. */
export function loadFrame(workdir: string, file: string): Frame {
  const parsed = FrameSchema.safeParse(JSON.parse(readArtifact(workdir, file)));
  if (!parsed.success) throw new Error(`data file "${file}" is not a {columns, data} frame`);
  return parsed.data;
}
