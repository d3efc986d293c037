/** `opsmind doctor`: what OpsMind will use here, and what to install when it cannot run. */
import type { Command } from 'commander';
import { describeLlm, llmConfig } from '../llm/config.js';
import { detectIsolation } from '../sandbox/isolation.js';
import { describeProtection } from '../sandbox/protection.js';
import type { Protection } from '../sandbox/protection.js';
import { describeLimits } from '../sandbox/limits.js';
import type { Limits } from '../sandbox/limits.js';
import { availableList, probeLibraries } from '../sandbox/libraries.js';
import type { LibraryReport } from '../sandbox/libraries.js';
import { findPython } from '../sandbox/python.js';
import type { PythonInfo } from '../sandbox/python.js';
import { preambleDir } from '../util/package-root.js';
import { printJson, printOut } from '../ui/print.js';
import { opsmindVersion } from '../util/version.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { limitsFrom } from './sandbox-options.js';
import { dbPath } from './store-option.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { removeTree } from '../util/remove-tree.js';
import { join } from 'node:path';
import { DuckDb } from '../engine/duckdb.js';

interface DoctorReport {
  ok: boolean;
  version: string;
  node: string;
  /** Fast mode's engine: embedded DuckDB, which needs no Python. */
  engine: { name: 'duckdb'; version: string } | { name: 'duckdb'; error: string };
  python: PythonInfo | { error: string; hint?: string };
  isolation: {
    level: string;
    reason: string;
    process_limit: string;
    uid: number;
    seccomp: boolean;
    protection: Protection;
  } | null;
  limits: Limits;
  /** The analysis libraries a sandboxed program can import, with versions. */
  libraries: LibraryReport | null;
  llm: Record<string, string>;
  store: string;
  problems: string[];
}

async function diagnose(store: string): Promise<DoctorReport> {
  const problems: string[] = [];
  let python: DoctorReport['python'];
  let isolation: DoctorReport['isolation'] = null;
  let libraries: LibraryReport | null = null;
  try {
    const info = await findPython();
    python = info;
    const iso = await detectIsolation(info.path, preambleDir());
    isolation = {
      level: iso.level,
      reason: iso.reason,
      process_limit: iso.processLimit,
      uid: iso.uid,
      seccomp: iso.seccomp,
      protection: describeProtection(iso),
    };
    if (iso.level !== 'bubblewrap') problems.push(`weaker isolation: ${iso.reason}`);
    if (iso.processLimit === 'none')
      problems.push('processes are not limited: running as root without a writable pids cgroup');
    libraries = await probeLibraries(info, limitsFrom({ isolation: 'auto' }));
    if (libraries.error) problems.push(libraries.error);
  } catch (error) {
    const e = error as OpsmindError;
    python = { error: e.message, ...(e.hint ? { hint: e.hint } : {}) };
    problems.push(e.message);
  }
  const engine = await engineReport();
  if ('error' in engine) problems.push(`the DuckDB engine cannot start: ${engine.error}`);
  return {
    ok: !('error' in python) && !('error' in engine),
    version: opsmindVersion(),
    node: process.version,
    engine,
    python,
    isolation,
    libraries,
    limits: limitsFrom({ isolation: 'auto' }),
    llm: describeLlm(llmConfig()),
    store,
    problems,
  };
}

async function engineReport(): Promise<DoctorReport['engine']> {
  const scratch = mkdtempSync(join(tmpdir(), 'opsmind-doctor-'));
  try {
    const db = await DuckDb.open({ memoryMb: 64, threads: 1, tempDir: join(scratch, 'spill') });
    try {
      return { name: 'duckdb', version: await db.version() };
    } finally {
      db.close();
    }
  } catch (error) {
    return { name: 'duckdb', error: error instanceof Error ? error.message : String(error) };
  } finally {
    removeTree(scratch);
  }
}

function libraryLines(report: LibraryReport): string[] {
  const missing = report.libraries.filter((l) => l.version === null).map((l) => l.name);
  return [
    `libraries    ${availableList(report.libraries) || 'none'}`,
    ...(missing.length ? [`             not importable: ${missing.join(', ')}`] : []),
  ];
}

function print(report: DoctorReport): void {
  const out: string[] = [`opsmind ${report.version} (node ${report.node})`, ''];
  out.push(
    'error' in report.engine
      ? `engine       MISSING: DuckDB: ${report.engine.error}`
      : `engine       DuckDB ${report.engine.version}, embedded (fast mode; needs no Python)`,
  );
  if ('error' in report.python)
    out.push(
      `python       MISSING: ${report.python.error}`,
      `             ${report.python.hint ?? ''}`,
    );
  else
    out.push(
      `python       ${report.python.path} (Python ${report.python.version})`,
      `             pandas ${report.python.pandas}, numpy ${report.python.numpy}, scipy ${report.python.scipy ?? 'not installed'}`,
    );
  if (report.libraries) out.push(...libraryLines(report.libraries));
  if (report.isolation) {
    const { protection } = report.isolation;
    out.push(
      `isolation    ${report.isolation.level}: ${report.isolation.reason}`,
      `             process limit enforced by: ${report.isolation.process_limit}`,
    );
    out.push(
      `  protects   ${protection.protects.join('; ')}`,
      `  not        ${protection.doesNot.join('; ')}`,
    );
  }
  out.push('limits', ...describeLimits(report.limits).map((l) => `  ${l}`));
  out.push('llm', ...Object.entries(report.llm).map(([k, v]) => `  ${k.padEnd(9)}${v}`));
  out.push(`store        ${report.store}`);
  if (report.problems.length) out.push('', ...report.problems.map((p) => `! ${p}`));
  printOut(`${out.join('\n')}\n`);
}

/** Registers `doctor`. Exits 4 when no Python with pandas is found. */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      'show the Python, isolation level, limits, LLM configuration and store OpsMind will use',
    )
    .option('--json', 'print one JSON object')
    .action(async (options: { json?: boolean }) => {
      const report = await diagnose(dbPath(program));
      if (options.json) printJson(report);
      else print(report);
      if (!report.ok) {
        const hint = 'error' in report.python ? report.python.hint : undefined;
        throw new OpsmindError(
          'error' in report.python
            ? 'deep mode and `opsmind run` cannot run here: no Python with pandas (fast mode runs on DuckDB)'
            : 'fast mode cannot run here: the DuckDB engine does not start',
          ExitCode.SANDBOX,
          hint,
        );
      }
    });
}
