/** What a program step leaves in the store: its code, spec and data frames, and the events that announce them. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readArtifact } from '../sandbox/artifacts.js';
import type { SandboxRun } from '../sandbox/sandbox.js';
import type { RenderSpec } from '../spec/schema.js';
import type { ArtifactRef, SessionEvent } from './events.js';

/** The files of a step to store: program.py, render_spec.json and each declared frame (through the file boundary). */
export function stepFiles(run: SandboxRun, spec: RenderSpec | null): { name: string; content: Buffer }[] {
  const files: { name: string; content: Buffer }[] = [];
  try {
    files.push({ name: 'program.py', content: readFileSync(join(run.workdir, '.opsmind', 'program.py')) });
  } catch {
    /* no program file: nothing to store */
  }
  if (!spec) return files;
  files.push({ name: 'render_spec.json', content: Buffer.from(readArtifact(run.workdir, 'render_spec.json')) });
  for (const decl of [...spec.charts, ...spec.tables]) {
    if (!decl.data.file) continue;
    try {
      files.push({ name: decl.data.file, content: Buffer.from(readArtifact(run.workdir, decl.data.file)) });
    } catch {
      /* refused by the boundary: validation reports it on the declaration */
    }
  }
  return files;
}

function ref(decl: RenderSpec['charts'][number]): ArtifactRef {
  return { id: decl.id, kind: decl.kind, title: typeof decl.params.title === 'string' ? decl.params.title : null, seq: decl.seq };
}

/** The program_finished event of a step. */
export function programFinished(step: number, run: SandboxRun): SessionEvent {
  return {
    type: 'program_finished', step, exit_code: run.exitCode, signal: run.signal, stdout: run.stdout, stderr: run.stderr,
    duration_ms: Math.round(run.durationMs * 10) / 10, isolation: run.isolation, warm: run.warm, limit_hit: run.limitHit,
  };
}

/** The artifact_added event of a step: only this step's new declarations (consumers append). */
export function artifactAdded(step: number, spec: RenderSpec | null): SessionEvent {
  return { type: 'artifact_added', step, charts: (spec?.charts ?? []).map(ref), tables: (spec?.tables ?? []).map(ref) };
}
