/**
 * The entry of a batch worker process (forked by batch/pool.ts): it opens the session store
 * once, then runs the jobs the coordinator sends over IPC, one at a time, answering each with
 * its result. It exits when the coordinator goes (IPC disconnect), so a killed batch leaves
 * no worker behind.
 */
import { SessionStore } from '../store/session-store.js';
import { runJob } from './worker.js';
import type { Job } from './worker.js';

const dbPath = process.env.OPSMIND_BATCH_DB;
if (!dbPath || !process.send) {
  process.stderr.write('opsmind batch worker: started without its coordinator\n');
  process.exit(2);
}
const store = SessionStore.open(dbPath);
let queue: Promise<void> = Promise.resolve();

process.on('message', (message: { type: string; job?: Job }) => {
  if (message.type !== 'job' || !message.job) return;
  const job = message.job;
  queue = queue.then(async () => {
    const result = await runJob(store, job);
    process.send?.({ type: 'result', id: job.id, result });
  });
});
process.on('disconnect', () => {
  try {
    store.close();
  } finally {
    process.exit(0);
  }
});
process.send({ type: 'ready' });
