/**
 * Where one `opsmind analyze` run spent its time, dated by the events its session stored
 * (`opsmind sessions show --json`): bench/fast prints it for each CSV's fastest duckdb run.
 */
import { execFileSync } from 'node:child_process';
import { z } from 'zod';

export const PHASES = [
  'start-up: node, modules, CLI, store, file hash (spawn → session row)',
  'DuckDB opened, file read into a table, locked',
  'profile (SQL)',
  'plan (heuristic)',
  'execute: chart queries and frames',
  'report written (HTML, Plotly inlined)',
  'exit: summary printed, store closed',
] as const;

const EventsSchema = z.object({
  session: z.object({ created_at: z.string() }),
  events: z.array(
    z.object({ type: z.string(), step: z.number().optional(), created_at: z.string() }),
  ),
});

/** A finished run: its session, when it was started (epoch ms) and how long it took. */
export interface TimedRun {
  session: string;
  startedAt: number;
  seconds: number;
}

/** The run's ms per PHASES, read with the CLI at `bin` in `env` (its OPSMIND_HOME holds the session). */
export function phasesOf(run: TimedRun, bin: string, env: NodeJS.ProcessEnv): number[] {
  const shown = execFileSync(process.execPath, [bin, 'sessions', 'show', run.session, '--json'], {
    env,
    encoding: 'utf8',
  });
  const { session, events } = EventsSchema.parse(JSON.parse(shown));
  const at = (type: string, step?: number) =>
    Date.parse(
      events.find((e) => e.type === type && (step === undefined || e.step === step))?.created_at ??
        '',
    );
  const marks = [
    run.startedAt,
    Date.parse(session.created_at),
    at('session_started'),
    at('step_finished', 1),
    at('step_finished', 2),
    at('step_finished', 3),
    at('report_written'),
    run.startedAt + run.seconds * 1000,
  ];
  return marks.slice(1).map((mark, i) => mark - (marks[i] ?? mark));
}
