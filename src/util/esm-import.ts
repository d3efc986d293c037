/**
 * Loading a package that is an ES module (ink, which has a top-level await, so `require` cannot
 * load it) or one best loaded on first use (jsdom, read-excel-file), from source and from the
 * bundle alike.
 *
 * The CLI's bundle is CommonJS run from V8's code cache (src/cli/code-cache.ts), and a script
 * compiled from that cache loses its dynamic-import callback (Node 20: every `import()` in it
 * fails with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING). So the bundle never calls `import()`
 * itself: code-cache.ts installs its own, under HOST_IMPORT, and this module uses that one. The
 * bundle's static imports of ink read the module this loaded (loadedEsm), so a module that
 * imports ink is imported after `importEsm('ink')` has resolved.
 */

/** Where code-cache.ts puts the dynamic import of an ES module (its own `import()`). */
export const HOST_IMPORT = Symbol.for('opsmind.hostImport');
const LOADED = Symbol.for('opsmind.loadedEsm');

type Importer = (specifier: string) => Promise<unknown>;
type Holder = { [HOST_IMPORT]?: Importer; [LOADED]?: Map<string, unknown> };

function loaded(): Map<string, unknown> {
  const holder = globalThis as Holder;
  holder[LOADED] ??= new Map();
  return holder[LOADED];
}

/** The package `specifier` (an ES module namespace), loaded once; typed by the caller. */
export async function importEsm<T>(specifier: string): Promise<T> {
  const known = loaded().get(specifier);
  if (known !== undefined) return known as T;
  const host = (globalThis as Holder)[HOST_IMPORT];
  const namespace = await (host ? host(specifier) : (import(specifier) as Promise<unknown>));
  loaded().set(specifier, namespace);
  return namespace as T;
}

/** A package importEsm has loaded; throws (a bug of ours) when it has not been loaded yet. */
export function loadedEsm(specifier: string): unknown {
  const namespace = loaded().get(specifier);
  if (namespace === undefined)
    throw new Error(`${specifier} is used before importEsm('${specifier}') loaded it`);
  return namespace;
}
