/** OpsMind's own version, from package.json. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { packageRoot } from './package-root.js';

const PackageSchema = z.object({ version: z.string() });

let cached: string | undefined;

/** The package version, e.g. "0.1.0". */
export function opsmindVersion(): string {
  cached ??= PackageSchema.parse(
    JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')),
  ).version;
  return cached;
}
