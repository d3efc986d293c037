/** What a program step leaves in the store: its code, spec, data frames and images, and the events that announce them. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_IMAGE_BYTES } from '../report/images.js';
import type { RenderedItem } from '../report/render.js';
import { readArtifactBytes } from '../sandbox/artifacts.js';
import type { SandboxRun } from '../sandbox/sandbox.js';
import { MAX_FRAME_BYTES, MAX_JSON_FILE_BYTES } from '../spec/host-limits.js';
import { REFUSALS_FILE, refusalsFile } from '../spec/refusals.js';
import type { RenderSpec } from '../spec/schema.js';
import type { ArtifactRef, SessionEvent } from '../shared/events.js';

/**
 * The files of a program step to store: program.py, then `workdirFiles`.
 */
export function stepFiles(
  run: SandboxRun,
  spec: RenderSpec | null,
  items: readonly RenderedItem[],
): { name: string; content: Buffer }[] {
  const files: { name: string; content: Buffer }[] = [];
  try {
    files.push({
      name: 'program.py',
      content: readFileSync(join(run.workdir, '.opsmind', 'program.py')),
    });
  } catch {
    /* no program file: nothing to store */
  }
  return [...files, ...workdirFiles(run.workdir, spec, items)];
}

/**
 * The files of a work dir to store: render_spec.json, the frame of each declaration that
 * rendered (once per file; a refused declaration's frame is never stored, so the frame budgets
 * bound the store, but why it was refused is: spec/refusals.ts) and each captured PNG (through
 * the file boundary).
 */
export function workdirFiles(
  workdir: string,
  spec: RenderSpec | null,
  items: readonly RenderedItem[],
): { name: string; content: Buffer }[] {
  const files: { name: string; content: Buffer }[] = [];
  if (!spec) return files;
  files.push({
    name: 'render_spec.json',
    content: readArtifactBytes(workdir, 'render_spec.json', MAX_JSON_FILE_BYTES),
  });
  const rendered = new Set(
    items
      .filter((i) => i.built && i.decl.data.file && i.decl.data.file !== REFUSALS_FILE)
      .map((i) => i.decl.data.file as string),
  );
  const refusals = refusalsFile(items);
  if (refusals) files.push({ name: REFUSALS_FILE, content: refusals });
  for (const file of rendered) {
    try {
      files.push({ name: file, content: readArtifactBytes(workdir, file, MAX_FRAME_BYTES) });
    } catch {
      /* changed since it rendered: the replay reports it on the declaration */
    }
  }
  for (const image of spec.images) {
    if (!image.file) continue;
    try {
      files.push({
        name: image.file,
        content: readArtifactBytes(workdir, image.file, MAX_IMAGE_BYTES),
      });
    } catch {
      /* refused by the boundary: the report says so on the image */
    }
  }
  return files;
}

function ref(decl: RenderSpec['charts'][number]): ArtifactRef {
  return {
    id: decl.id,
    kind: decl.kind,
    title: typeof decl.params.title === 'string' ? decl.params.title : null,
    seq: decl.seq,
  };
}

function imageRef(image: RenderSpec['images'][number]): ArtifactRef {
  return { id: image.id, kind: 'image', title: image.title, seq: image.seq };
}

/** The program_finished event of a step. */
export function programFinished(step: number, run: SandboxRun): SessionEvent {
  return {
    type: 'program_finished',
    step,
    exit_code: run.exitCode,
    signal: run.signal,
    stdout: run.stdout,
    stderr: run.stderr,
    duration_ms: Math.round(run.durationMs * 10) / 10,
    isolation: run.isolation,
    warm: run.warm,
    limit_hit: run.limitHit,
  };
}

/** The artifact_added event of a step: only this step's new declarations (consumers append). */
export function artifactAdded(step: number, spec: RenderSpec | null): SessionEvent {
  const images = (spec?.images ?? []).map(imageRef);
  return {
    type: 'artifact_added',
    step,
    charts: (spec?.charts ?? []).map(ref),
    tables: (spec?.tables ?? []).map(ref),
    ...(images.length ? { images } : {}),
  };
}
