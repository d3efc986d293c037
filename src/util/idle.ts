/**
 * Work a run needs later but not yet (ICU's number data, say), done while this thread waits on
 * another: DuckDB runs a query on its own threads, and the main thread has nothing to do until
 * the result comes back. A module registers the work with `whenIdle`; the engine calls
 * `useIdle` each time it hands a query over. Work that never finds a wait is done on first use
 * instead, so a task only ever moves work earlier, never adds any.
 */

const waiting: (() => void)[] = [];

/** Registers `task` to run in the next wait (at most once). */
export function whenIdle(task: () => void): void {
  waiting.push(task);
}

/** Runs the next registered task as soon as the event loop is free: call it right after handing work to another thread. */
export function useIdle(): void {
  const task = waiting.shift();
  if (!task) return;
  setImmediate(() => {
    try {
      task();
    } catch {
      // Warming up only: the work is redone, and fails for real, where it is used.
    }
  });
}
