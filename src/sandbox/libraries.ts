/**
 * Which analysis libraries (pandas, numpy, scipy, matplotlib, seaborn,
 * scikit-learn, …) a program can import in the sandbox, with versions. The
 * list lives in one place, preamble/opsmind_libraries.py; it is probed by a
 * program run in the sandbox itself, cached like the other environment probes
 * (a day), and probed again when one of the import directories changes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { preambleDir } from '../util/package-root.js';
import { cachedParsed, fingerprint, remember } from '../util/probe-cache.js';
import { detectIsolation } from './isolation.js';
import type { Limits } from './limits.js';
import type { PythonInfo } from './python.js';
import { Sandbox } from './sandbox.js';

/** One probed library: its version when a program can import it, else why not. */
export const LibrarySchema = z.object({
  name: z.string(),
  module: z.string(),
  version: z.string().nullable(),
  error: z.string().nullable(),
});
/** A probed library. */
export type Library = z.infer<typeof LibrarySchema>;

/** The probe's answer, and the reason when it failed (then only what findPython knew is listed). */
export interface LibraryReport {
  libraries: Library[];
  error: string | null;
}

const ProbeSchema = z.object({ libraries: z.array(LibrarySchema), paths: z.array(z.string()) });
const CachedSchema = ProbeSchema.extend({ print: z.string() });

const PROBE_CODE =
  'import json, opsmind_libraries\nprint("opsmind-libraries: " + json.dumps(opsmind_libraries.probe()))\n';
const MARKER = 'opsmind-libraries: ';

/** The libraries a program can import, as `pandas 1.5.3, numpy 1.24.2, …`. */
export function availableList(libraries: readonly Library[]): string {
  return libraries
    .filter((l) => l.version !== null)
    .map((l) => `${l.name} ${l.version ?? ''}`)
    .join(', ');
}

function cacheKey(python: string, level: string): { key: string; print: string } {
  return {
    key: `libraries|${python}|${level}`,
    print: fingerprint([python, join(preambleDir(), 'opsmind_libraries.py')]),
  };
}

function fromCache(python: string, level: string): Library[] | undefined {
  const { key, print } = cacheKey(python, level);
  const hit = cachedParsed(key, print, CachedSchema);
  return hit && fingerprint(hit.paths) === hit.print ? hit.libraries : undefined;
}

function known(python: PythonInfo): Library[] {
  const entry = (name: string, version: string | null): Library => ({
    name,
    module: name,
    version,
    error: version ? null : 'not installed',
  });
  return [
    entry('pandas', python.pandas),
    entry('numpy', python.numpy),
    entry('scipy', python.scipy),
  ];
}

function parseProbe(stdout: string): z.infer<typeof ProbeSchema> | undefined {
  const line = stdout.split('\n').find((l) => l.startsWith(MARKER));
  if (!line) return undefined;
  try {
    const parsed = ProbeSchema.safeParse(JSON.parse(line.slice(MARKER.length)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The libraries of the sandbox's Python, probed with a program in `sandbox` unless cached; never rejects. */
export async function analysisLibraries(
  sandbox: Sandbox,
  signal?: AbortSignal,
): Promise<LibraryReport> {
  const python = sandbox.options.python;
  const hit = fromCache(python.path, sandbox.isolation.level);
  if (hit) return { libraries: hit, error: null };
  let reason: string;
  try {
    const run = await sandbox.run({
      code: PROBE_CODE,
      scriptName: 'probe_libraries.py',
      ...(signal ? { signal } : {}),
    });
    const probed = parseProbe(run.stdout);
    if (probed) {
      const { key, print } = cacheKey(python.path, sandbox.isolation.level);
      remember(key, print, { ...probed, print: fingerprint(probed.paths) });
      return { libraries: probed.libraries, error: null };
    }
    reason =
      run.limitHit ??
      (run.stderr.trim().split('\n').at(-1) ||
        `the probe exited with ${run.exitCode ?? run.signal ?? '?'}`);
  } catch (error) {
    reason = (error as Error).message;
  }
  return { libraries: known(python), error: `the library probe failed: ${reason}` };
}

/** The same for `opsmind doctor`, where no dataset is open: a throwaway sandbox over a one-cell CSV. */
export async function probeLibraries(python: PythonInfo, limits: Limits): Promise<LibraryReport> {
  const isolation = await detectIsolation(python.path, preambleDir());
  const hit = fromCache(python.path, isolation.level);
  if (hit) return { libraries: hit, error: null };
  const dir = mkdtempSync(join(tmpdir(), 'opsmind-libraries-'));
  let sandbox: Sandbox | undefined;
  try {
    writeFileSync(join(dir, 'probe.csv'), 'x\n1\n');
    sandbox = await Sandbox.open({ python, dataPath: join(dir, 'probe.csv'), limits, warm: false });
    return await analysisLibraries(sandbox);
  } catch (error) {
    return {
      libraries: known(python),
      error: `the library probe failed: ${(error as Error).message}`,
    };
  } finally {
    sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
