/** Locating files shipped with the package (preamble/, examples/) from source or from dist/. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The directory holding OpsMind's package.json, whether running from src/ (tsx) or dist/. */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'preamble'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('cannot locate the OpsMind package root (package.json with preamble/)');
    dir = parent;
  }
  cached = dir;
  return dir;
}

/** The directory of the Python preamble. */
export function preambleDir(): string {
  return join(packageRoot(), 'preamble');
}
