/**
 * Child process for the hostile-file cases of test/sandbox-hardening.test.ts:
 * opens a real Sandbox, runs a warm-up program, then the hostile one through
 * executeProgram while measuring this (host) process's memory, then a normal
 * program, then closes. Prints one line `RESULT <json>`. Run it under
 * runContained (contained.ts): if the host hangs or reads without bound, the
 * child dies there, not the test process.
 *
 *   node --expose-gc --import tsx test/helpers/contained-run.ts request.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { executeProgram } from '../../src/agent/execute-program.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import type { Limits } from '../../src/sandbox/limits.js';
import { findPython } from '../../src/sandbox/python.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';

/** What the parent asks for. */
export interface ContainedRequest {
  dataPath: string;
  limits: Partial<Limits>;
  warmup: string;
  code: string;
  followUp: string;
}

/** What the child reports. */
export interface ContainedReport {
  level: string;
  elapsedMs: number;
  rssGrowthMb: number;
  peakGrowthMb: number;
  /** JSON.stringify of the whole ProgramOutcome (or of the error), to search for leaks. */
  outcomeJson: string;
  warnings: string[];
  error: string | null;
  followUp: { exitCode: number | null; stdout: string; stderr: string } | null;
  closeError: string | null;
}

const MB = 1024 * 1024;

function peakRss(): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

function resetPeak(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
  } catch {
    /* older kernel: the peak then includes start-up */
  }
}

function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function main(): Promise<void> {
  const request = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as ContainedRequest;
  const sandbox = await Sandbox.open({
    python: await findPython(),
    dataPath: request.dataPath,
    limits: { ...DEFAULT_LIMITS, ...request.limits },
  });
  const report: ContainedReport = {
    level: sandbox.isolation.level,
    elapsedMs: 0,
    rssGrowthMb: 0,
    peakGrowthMb: 0,
    outcomeJson: '',
    warnings: [],
    error: null,
    followUp: null,
    closeError: null,
  };
  try {
    await executeProgram(sandbox, { code: request.warmup, scriptName: 'warmup.py' });
    collect();
    const before = process.memoryUsage().rss;
    resetPeak();
    const started = performance.now();
    try {
      const outcome = await executeProgram(sandbox, {
        code: request.code,
        scriptName: 'hostile.py',
      });
      report.outcomeJson = JSON.stringify(outcome);
      report.warnings = outcome.warnings;
    } catch (error) {
      report.error = (error as Error).message;
      report.outcomeJson = JSON.stringify({
        message: (error as Error).message,
        hint: (error as { hint?: string }).hint,
      });
    }
    report.elapsedMs = performance.now() - started;
    report.rssGrowthMb = (process.memoryUsage().rss - before) / MB;
    report.peakGrowthMb = (peakRss() - before) / MB;
    const next = await sandbox.run({ code: request.followUp, scriptName: 'next.py' });
    report.followUp = { exitCode: next.exitCode, stdout: next.stdout, stderr: next.stderr };
  } finally {
    try {
      sandbox.close();
    } catch (error) {
      report.closeError = (error as Error).message;
    }
  }
  process.stdout.write(`RESULT ${JSON.stringify(report)}\n`);
}

await main();
