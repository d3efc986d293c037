/**
 * Running the bundled CLI (dist/bundle/main.cjs) with V8's code cache: what a run compiled is
 * saved when it exits, and the next run of the same subcommand starts from that bytecode instead
 * of parsing and compiling the bundle's functions again. Node 22 has this built in
 * (module.enableCompileCache); Node 20, which OpsMind supports, does not.
 *
 * Why: a 10,000-row `analyze` spends about 0.1 s of its ~1 s compiling JavaScript (the
 * bundle's top level, then each function the first time it runs). With the cache that is gone.
 *
 * The cache is a convenience, never a dependency: a cache that cannot be read, was written by
 * another Node or build (V8 checks its version, flags and the source's length and rejects it), or
 * cannot be written (read-only home, full disk) only means the run compiles as it would have.
 * Files live in `$OPSMIND_HOME/cache`, else `$XDG_CACHE_HOME/opsmind` (default ~/.cache/opsmind),
 * one per subcommand (and analyze's path: cacheTopic) and bundle, written atomically by a run that
 * succeeded; `OPSMIND_NO_CODE_CACHE=1` turns it off.
 *
 * V8 runs the bytecode of a cache it accepts without checking it, so a cache another user could
 * have written is never read: the directory and the file must belong to this user and be
 * writable by nobody else (the directory is created 0700, the files 0600).
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';
import { HOST_IMPORT } from '../util/esm-import.js';
import { preloadNative } from './native-preload.js';
import { SUBCOMMANDS, subcommandOf } from './subcommand.js';

/** Where the code cache lives for this environment, or null when it is turned off. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.OPSMIND_NO_CODE_CACHE && env.OPSMIND_NO_CODE_CACHE !== '0') return null;
  if (env.OPSMIND_HOME) return join(env.OPSMIND_HOME, 'cache');
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'opsmind');
}

/** The value of `--flag value` or `--flag=value` on a command line (the last one given). */
function flagValue(args: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  args.forEach((word, i) => {
    if (word === flag) value = args[i + 1];
    else if (word.startsWith(`${flag}=`)) value = word.slice(flag.length + 1);
  });
  return value;
}

/**
 * What a command line runs, for the cache's name: its subcommand (`none` without one, `other` for
 * a word that is none); for `analyze`, also the path it takes — fast mode on DuckDB (`analyze`),
 * on pandas (`analyze.pandas`) or deep mode (`analyze.deep`). A cache holds the functions its
 * run compiled: one written by a pandas run left a DuckDB run compiling its own, every time.
 */
export function cacheTopic(args: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const word = subcommandOf(args);
  if (word === undefined) return 'none';
  if (!(SUBCOMMANDS as readonly string[]).includes(word)) return 'other';
  if (word !== 'analyze') return word;
  if (flagValue(args, '--mode') === 'deep') return 'analyze.deep';
  return (flagValue(args, '--engine') ?? env.OPSMIND_ENGINE) === 'pandas' ? 'analyze.pandas' : word;
}

/**
 * The cache file of `bundle` for `topic`: named by the Node that compiles it and a hash of the
 * bundle's bytes (2 ms). Not by size and mtime: V8 checks only a source's length, and npm gives
 * every file it installs the same mtime, so two releases of one size would share a stale cache.
 */
function cacheFile(
  dir: string,
  bytes: Buffer,
  bundle: string,
  topic: string,
): { path: string; prefix: string } {
  const prefix = `${basename(bundle)}-${topic}-`;
  const hash = createHash('sha1').update(bytes).digest('hex').slice(0, 16);
  const key = `${process.version}-${process.arch}-${hash}`.replace(/[^\w.-]/g, '_');
  return { path: join(dir, `${prefix}${key}.bin`), prefix };
}

/** Whether `path` is this user's and writable by no one else (true where there is no owner to check). */
function ownedPrivately(path: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  const { uid: owner, mode } = statSync(path);
  return owner === uid && (mode & 0o022) === 0;
}

/** Whether the cache directory may be used: missing (it is created private) or this user's alone. */
function safeDir(dir: string): boolean {
  try {
    return ownedPrivately(dir);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function readCache(path: string): Buffer | undefined {
  try {
    return ownedPrivately(path) ? readFileSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the cache atomically and removes the topic's caches of other builds; errors are ignored. */
function writeCache(script: vm.Script, dir: string, file: { path: string; prefix: string }): void {
  const tmp = `${file.path}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    renameSync(tmp, file.path);
    for (const name of readdirSync(dir))
      if (name.startsWith(file.prefix) && name.endsWith('.bin') && join(dir, name) !== file.path)
        unlinkSync(join(dir, name));
  } catch {
    // The cache only saves time; a run never fails for it, nor leaves a partial file (a full disk).
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing more to do
    }
  }
}

/** How a run's code was compiled: from a usable cache, afresh (none yet, or V8 rejected it), or with the cache off (or in a place others can write). */
export type CodeCacheUse = 'cached' | 'compiled' | 'rejected' | 'off';

/**
 * Runs the CommonJS bundle at `bundle` as Node's loader would (`require`, `module`, `__filename`
 * and `__dirname` its own, dynamic `import()` through Node's default loader), compiled from the
 * code cache when there is a usable one, and saves the cache at exit when there was none.
 */
export function runBundle(
  bundle: string,
  args: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): CodeCacheUse {
  // A script compiled from the cache has no dynamic import of its own (esm-import.ts): this is it.
  (globalThis as { [HOST_IMPORT]?: (specifier: string) => Promise<unknown> })[HOST_IMPORT] = (
    specifier,
  ) => import(specifier);
  const topic = cacheTopic(args, env);
  preloadNative(topic, bundle, env);
  const require = createRequire(bundle);
  const dir = codeCacheDir(env);
  const importer = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  if (dir === null || importer === undefined || !safeDir(dir)) {
    require(bundle);
    return 'off';
  }
  const bytes = readFileSync(bundle);
  const file = cacheFile(dir, bytes, bundle, topic);
  const cachedData = readCache(file.path);
  // The build writes the bundle in ASCII (bundle.ts), which latin1 turns into a string without decoding.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    { filename: bundle, importModuleDynamically: importer, ...(cachedData ? { cachedData } : {}) },
  );
  const use: CodeCacheUse = !cachedData
    ? 'compiled'
    : script.cachedDataRejected
      ? 'rejected'
      : 'cached';
  // Saved by a run that succeeded: one that stopped early (a missing file) compiled little.
  if (use !== 'cached')
    process.once('exit', (code) => {
      if (code === 0) writeCache(script, dir, file);
    });
  const module = { exports: {}, filename: bundle, id: bundle, require };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, require, module, bundle, dirname(bundle));
  return use;
}
