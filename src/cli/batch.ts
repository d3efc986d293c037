/**
 * `opsmind batch <file|dir|glob>... --out-dir DIR`: one report per file through a pool of
 * workers, an index of them all, and what changed since the last run; `opsmind batch merge
 * DIR... --out-dir OUT` joins the folders of a sharded batch. Exit 0 when every file
 * succeeded, 1 when some failed (the index says which and why), 2 for bad usage.
 */
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  inputsFromArgs,
  inputsFromConfig,
  inShard,
  parseShard,
  readConfig,
} from '../batch/inputs.js';
import { mergeShards } from '../batch/merge.js';
import { runBatch } from '../batch/run.js';
import type { BatchIndex, Entry } from '../batch/types.js';
import { llmConfig, llmConfigured } from '../llm/config.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { createBatchView } from '../ui/batch-progress.js';
import { printJson, printOut } from '../ui/print.js';
import { readIndex } from '../batch/index-file.js';
import {
  addSandboxOptions,
  engineMemoryFrom,
  isolationFrom,
  limitsFrom,
} from './sandbox-options.js';
import type { SandboxFlags } from './sandbox-options.js';
import { openStore } from './store-option.js';

interface BatchFlags extends SandboxFlags {
  outDir?: string;
  jobs?: string;
  script?: string;
  question?: string;
  mode?: string;
  resume?: boolean;
  force?: boolean;
  failFast?: boolean;
  json?: boolean;
  config?: string;
  shard?: string;
  fileTimeout: string;
}

function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new OpsmindError(
      `${flag} must be a whole number ≥ 1, got "${value}"`,
      ExitCode.BAD_INPUT,
    );
  return n;
}

function summaryOf(index: BatchIndex, outDir: string): Record<string, unknown> {
  return {
    out_dir: outDir,
    index: join(outDir, 'index.html'),
    totals: index.totals,
    failed: index.entries
      .filter((e) => e.status === 'failed')
      .map((e) => ({ name: e.name, file: e.file, error: e.error })),
    entries: index.entries.map((e: Entry) => ({
      name: e.name,
      status: e.status,
      reused: e.reused,
      report: e.report ? join(outDir, e.report) : null,
      rows: e.rows,
      seconds: e.seconds,
      error: e.error,
    })),
  };
}

function printSummary(index: BatchIndex, outDir: string, json: boolean): void {
  if (json) {
    printJson(summaryOf(index, outDir));
    return;
  }
  const t = index.totals;
  const lines = [
    `batch: ${t.done} of ${t.files} files done${t.reused ? ` (${t.reused} unchanged, kept)` : ''}, ${t.failed} failed`,
    ...index.entries
      .filter((e) => e.status === 'failed')
      .map((e) => `  failed: ${e.name}: ${e.error ?? ''}`),
    `index: ${join(outDir, 'index.html')}`,
  ];
  printOut(`${lines.join('\n')}\n`);
}

async function batchCommand(program: Command, args: string[], flags: BatchFlags): Promise<number> {
  const config = flags.config ? readConfig(flags.config) : null;
  if (config && args.length)
    throw new OpsmindError('give either files or --config, not both', ExitCode.BAD_INPUT);
  if (!config && !args.length)
    throw new OpsmindError(
      'name the files to report on (files, folders or globs), or --config',
      ExitCode.BAD_INPUT,
    );
  const outArg = flags.outDir ?? config?.config.out_dir;
  if (!outArg) throw new OpsmindError('--out-dir is required', ExitCode.BAD_INPUT);
  const outDir = resolve(config && !flags.outDir ? join(config.dir, outArg) : outArg);
  const mode = flags.mode ?? config?.config.mode ?? 'fast';
  if (mode !== 'fast' && mode !== 'deep')
    throw new OpsmindError(`--mode must be "fast" or "deep", got "${mode}"`, ExitCode.BAD_INPUT);
  const script =
    flags.script ?? (config?.config.script ? resolve(config.dir, config.config.script) : undefined);
  const question = flags.question ?? config?.config.question;
  if (script && question)
    throw new OpsmindError('give --script or -q, not both', ExitCode.BAD_INPUT);
  if (mode === 'deep' && !llmConfigured(llmConfig({})))
    throw new OpsmindError(
      '--mode deep needs an LLM, and none is configured',
      ExitCode.BAD_INPUT,
      'set OPENAI_API_KEY (and OPENAI_BASE_URL for another endpoint), or use fast mode',
    );
  const shard = flags.shard ? parseShard(flags.shard) : null;
  let inputs = config ? inputsFromConfig(config.config, config.dir) : inputsFromArgs(args, outDir);
  if (shard) inputs = inputs.filter((i) => inShard(i, shard));
  const jobs = flags.jobs
    ? positiveInt(flags.jobs, '--jobs')
    : (config?.config.jobs ?? availableParallelism());
  const limits = limitsFrom(flags);
  const view = await createBatchView({ json: flags.json === true });
  const store = openStore(program);
  try {
    const { entries } = await runBatch({
      inputs,
      outDir,
      jobs,
      mode: script ? 'script' : mode,
      ...(question ? { question } : {}),
      ...(script ? { script: resolve(script) } : {}),
      resume: flags.resume === true,
      force: flags.force === true,
      failFast: flags.failFast === true,
      shard,
      fileTimeoutMs: positiveInt(flags.fileTimeout, '--file-timeout') * 1000,
      limits,
      isolation: isolationFrom(flags),
      engineMemoryMb: engineMemoryFrom(flags),
      store,
      onProgress: (event) => view.show(event),
    });
    await view.close();
    const index = readIndex(outDir);
    if (!index)
      throw new OpsmindError(`the index of ${outDir} could not be read back`, ExitCode.INTERNAL);
    printSummary(index, outDir, flags.json === true);
    return entries.some((e) => e.status === 'failed') ? 1 : ExitCode.OK;
  } finally {
    await view.close();
    store.close();
  }
}

/** Registers `batch` (and `batch merge`). */
export function registerBatch(program: Command): void {
  const command = program
    .command('batch')
    .description(
      'one report per file, an index of them all, and what changed since the last run; `batch merge DIR... --out-dir OUT` joins shard folders',
    )
    .argument(
      '[inputs...]',
      'files, folders and globs (quote globs: "data/*.csv"); or `merge` and shard folders',
    )
    .option('--out-dir <dir>', 'the output folder: reports/, plotly.min.js, index.html, index.json')
    .option('--jobs <n>', 'worker processes (default: the number of cores)')
    .option(
      '--script <file.py>',
      'run this analysis script on each file (as `opsmind run`), instead of fast mode',
    )
    .option('-q, --question <text>', 'the question each report answers first')
    .option('--mode <mode>', 'fast (default) or deep (needs an LLM)')
    .option(
      '--resume',
      'finish an earlier, interrupted run of this folder (fails if there is none)',
    )
    .option('--force', 'redo every file, even unchanged ones')
    .option('--fail-fast', 'stop at the first file that fails')
    .option('--json', 'print one JSON object at the end')
    .option(
      '--config <batch.json>',
      'the datasets (each with its own question, script or name) and settings',
    )
    .option(
      '--shard <K/N>',
      'process only shard K of N (by a hash of each file name), for a scheduler',
    )
    .option('--file-timeout <seconds>', 'the time limit of one file', '600');
  addSandboxOptions(command).action(async (inputs: string[], flags: BatchFlags) => {
    if (inputs[0] === 'merge') {
      if (!flags.outDir) throw new OpsmindError('batch merge needs --out-dir', ExitCode.BAD_INPUT);
      const index = mergeShards(inputs.slice(1), flags.outDir);
      printSummary(index, resolve(flags.outDir), flags.json === true);
      process.exitCode = index.totals.failed ? 1 : ExitCode.OK;
      return;
    }
    process.exitCode = await batchCommand(program, inputs, flags);
  });
}
