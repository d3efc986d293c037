/** The ink view of a running batch: a bar of files done, failures, the ETA and the latest files. */
import { Box, Text, render } from 'ink';
import { createElement } from 'react';
import type { BatchView } from './batch-progress.js';
import { EMPTY_BATCH, foldBatch, statusLine } from './batch-progress.js';
import type { BatchState } from './batch-progress.js';

const WIDTH = 30;

/** The bar and the latest files. */
export function BatchProgressView({ state }: { state: BatchState }) {
  const finished = state.done + state.reused;
  const filled = state.total ? Math.round((finished / state.total) * WIDTH) : 0;
  return (
    <Box flexDirection="column">
      <Text>
        <Text color="green">{'█'.repeat(filled)}</Text>
        <Text dimColor>{'░'.repeat(WIDTH - filled)}</Text> {statusLine(state)}
      </Text>
      {state.recent.map((r, i) => (
        <Text key={`${i}-${r.name}`} color={r.ok ? undefined : 'red'} dimColor={r.ok}>
          {r.ok ? '✔' : '✘'} {r.text}
        </Text>
      ))}
    </Box>
  );
}

/** Starts the view on stderr; `close` leaves its last frame. */
export function inkBatchView(): Promise<BatchView> {
  let state = EMPTY_BATCH;
  const app = render(createElement(BatchProgressView, { state }), {
    stdout: process.stderr,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  const tick = setInterval(() => app.rerender(createElement(BatchProgressView, { state })), 1000);
  tick.unref();
  return Promise.resolve({
    show(event) {
      state = foldBatch(state, event);
      app.rerender(createElement(BatchProgressView, { state }));
    },
    async close() {
      clearInterval(tick);
      app.unmount();
      await app.waitUntilExit();
    },
  });
}
