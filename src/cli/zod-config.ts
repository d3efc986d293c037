/**
 * zod without its JIT for the CLI: zod 4 compiles each object schema into a function (new
 * Function) the first time it parses, which pays back over many parses of one schema. A CLI run
 * parses most of its schemas once or twice, and code built by new Function is not kept by V8's
 * code cache (code-cache.ts), so every run would compile them again: about 30 ms of a 10,000-row
 * analyze. Imported first by main.ts, so it is set before any schema is built (zod reads it then).
 */
import { config } from 'zod';

config({ jitless: true });
