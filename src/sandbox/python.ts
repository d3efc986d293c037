/**
 * Finding a Python that can `import pandas`: $OPSMIND_PYTHON first, then
 * /usr/bin/python3 (Debian's pandas lives there), then python3 on PATH.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { z } from 'zod';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { cachedParsed, fingerprint, remember } from '../util/probe-cache.js';

/** A Python interpreter with the versions of the libraries OpsMind uses. */
export const PythonInfoSchema = z.object({
  path: z.string(),
  version: z.string(),
  pandas: z.string(),
  numpy: z.string(),
  /** null when scipy is not installed (it is optional). */
  scipy: z.string().nullable(),
});
/** A Python with pandas that OpsMind can use. */
export type PythonInfo = z.infer<typeof PythonInfoSchema>;

const PROBE = [
  'import json, sys, pandas, numpy',
  'try:\n    import scipy; s = scipy.__version__\nexcept Exception:\n    s = None',
  'print(json.dumps({"version": sys.version.split()[0], "pandas": pandas.__version__, "numpy": numpy.__version__, "scipy": s}))',
].join('\n');

const INSTALL_HINT =
  'install pandas for the system Python (Debian/Ubuntu: sudo apt-get install python3-pandas python3-numpy python3-scipy) or set OPSMIND_PYTHON to a Python that has it';

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      continue;
    }
  }
  return undefined;
}

/** Runs the probe under `path`; resolves the info, or undefined when pandas cannot be imported there. */
export function probePython(path: string): Promise<PythonInfo | undefined> {
  return new Promise((resolve) => {
    execFile(
      path,
      ['-I', '-c', PROBE],
      { timeout: 30_000, env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' } },
      (error, stdout) => {
        if (error) return resolve(undefined);
        try {
          const parsed = JSON.parse(stdout.trim()) as Omit<PythonInfo, 'path'>;
          resolve({ path, ...parsed });
        } catch {
          resolve(undefined);
        }
      },
    );
  });
}

/** The candidate interpreters in the order they are tried. */
export function pythonCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const list = ['/usr/bin/python3', onPath('python3', env), onPath('python', env)];
  return [...new Set(list.filter((p): p is string => p !== undefined))];
}

const memo = new Map<string, Promise<PythonInfo>>();

/** The first interpreter that can import pandas; throws an OpsmindError (exit 4) naming what to install. */
export function findPython(env: NodeJS.ProcessEnv = process.env): Promise<PythonInfo> {
  const key = `${env.OPSMIND_PYTHON ?? ''}|${env.PATH ?? ''}`;
  let found = memo.get(key);
  if (!found) {
    found = discover(env);
    memo.set(key, found);
    found.catch(() => memo.delete(key));
  }
  return found;
}

async function discover(env: NodeJS.ProcessEnv): Promise<PythonInfo> {
  const key = `python|${env.OPSMIND_PYTHON ?? ''}|${env.PATH ?? ''}`;
  const candidates = env.OPSMIND_PYTHON ? [env.OPSMIND_PYTHON] : pythonCandidates(env);
  const print = fingerprint(candidates);
  const hit = cachedParsed(key, print, PythonInfoSchema);
  if (hit) return hit;
  const found = await probeAll(env);
  remember(key, print, found);
  return found;
}

async function probeAll(env: NodeJS.ProcessEnv): Promise<PythonInfo> {
  const override = env.OPSMIND_PYTHON;
  if (override) {
    const info = await probePython(override);
    if (info) return info;
    throw new OpsmindError(
      `OPSMIND_PYTHON=${override} cannot run Python with pandas`,
      ExitCode.SANDBOX,
      INSTALL_HINT,
    );
  }
  const tried: string[] = [];
  for (const candidate of pythonCandidates(env)) {
    tried.push(candidate);
    const info = await probePython(candidate);
    if (info) return info;
  }
  throw new OpsmindError(
    `no Python with pandas found (tried: ${tried.join(', ') || 'none on PATH'})`,
    ExitCode.SANDBOX,
    INSTALL_HINT,
  );
}
