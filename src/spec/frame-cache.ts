/**
 * The frames of one spec's declarations: each data file is read and parsed
 * once however many declarations share it, and dropped after the last of
 * them, so a spec pointing 100 declarations at one file costs one copy.
 */
import { join } from 'node:path';
import { readArtifactBytes, resolveArtifact } from '../sandbox/artifacts.js';
import { MAX_FRAME_BYTES } from './host-limits.js';
import { parseFrame } from './load.js';
import type { Frame } from './schema.js';

/** A data file's size, or why the file boundary refuses it. */
export type FrameSize = { ok: true; bytes: number } | { ok: false; reason: string };

/** Frames of one work dir, cached by file name while declarations still need them. */
export class FrameCache {
  private readonly frames = new Map<string, Frame | Error>();
  private readonly pending = new Map<string, number>();

  /** `files`: the data file of every declaration that may load one, repeated once per declaration. */
  constructor(
    private readonly workdir: string,
    files: readonly (string | null)[],
  ) {
    for (const file of files)
      if (file !== null) this.pending.set(file, (this.pending.get(file) ?? 0) + 1);
  }

  /** A key naming the file across work dirs (a report may render several steps). */
  key(file: string): string {
    return join(this.workdir, file);
  }

  /** The file's size from a stat (nothing is read), or why it is refused. */
  size(file: string): FrameSize {
    const found = resolveArtifact(this.workdir, file, Number.MAX_SAFE_INTEGER);
    return found.ok ? { ok: true, bytes: found.bytes } : found;
  }

  /** The parsed frame, read on first use; throws with the reason (also remembered) when it is unusable. */
  frame(file: string): Frame {
    let cached = this.frames.get(file);
    if (cached === undefined) {
      try {
        cached = parseFrame(
          readArtifactBytes(this.workdir, file, MAX_FRAME_BYTES).toString('utf8'),
          file,
        );
      } catch (error) {
        cached = error instanceof Error ? error : new Error(String(error));
      }
      this.frames.set(file, cached);
    }
    if (cached instanceof Error) throw cached;
    return cached;
  }

  /** One declaration is done with `file`; after the last one the frame is dropped. */
  release(file: string): void {
    const left = (this.pending.get(file) ?? 1) - 1;
    this.pending.set(file, left);
    if (left <= 0) this.frames.delete(file);
  }
}
