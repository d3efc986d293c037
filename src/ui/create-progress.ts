/** Picks the progress view: ink for a person at a TTY, plain lines on stderr otherwise, nothing for --json. */
import { isInteractive } from './headless.js';
import { PlainProgress, SilentProgress } from './progress.js';
import type { ProgressView } from './progress.js';

/** The progress view for this invocation; ink is imported only when interactive. */
export async function createProgress(options: { json: boolean }): Promise<ProgressView> {
  if (options.json) return new SilentProgress();
  if (!isInteractive(options)) return new PlainProgress();
  try {
    const { createInkProgress } = await import('./ink-progress.js');
    return await createInkProgress();
  } catch {
    return new PlainProgress();
  }
}
