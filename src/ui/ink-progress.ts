/** The interactive progress view, loaded only when a person watches a TTY (ink and react are imported lazily). */
import type { StoredEvent } from '../shared/events.js';
import { importEsm } from '../util/esm-import.js';
import type { ProgressView } from './progress.js';
import { emptyTimeline, foldTimeline } from './step-timeline.js';
import type * as Ink from 'ink';
import type * as React from 'react';

/** Starts an ink render of the analysis timeline; `close` unmounts it, leaving the last frame on screen. */
export async function createInkProgress(): Promise<ProgressView> {
  // ink first: AnalyzeView imports it (esm-import.ts).
  const [{ render }, { createElement }] = await Promise.all([
    importEsm<typeof Ink>('ink'),
    importEsm<typeof React>('react'),
  ]);
  const view = await import('./AnalyzeView.js');
  let state = emptyTimeline;
  let closed = false;
  const app = render(createElement(view.AnalyzeView, { state }), {
    stdout: process.stderr,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  return {
    show(event: StoredEvent) {
      const next = foldTimeline(state, event);
      if (next === state) return;
      state = next;
      app.rerender(createElement(view.AnalyzeView, { state }));
    },
    async close() {
      if (closed) return;
      closed = true;
      app.unmount();
      await app.waitUntilExit();
    },
  };
}
