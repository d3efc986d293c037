/** The real binary in a real terminal under tmux: chat against the fake LLM, toggle the mode, quit cleanly, nothing left behind. */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeLlm, streamChunks } from './helpers/fake-llm.js';
import { ROOT, salesCsv, tempDir, testHome } from './helpers/fixtures.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function screen(name: string): string {
  return execFileSync('tmux', ['capture-pane', '-p', '-t', name], { encoding: 'utf8' });
}

async function waitFor(name: string, pattern: RegExp, ms: number): Promise<string> {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    last = screen(name);
    if (pattern.test(last)) return last;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${String(pattern)}; screen:\n${last}`);
}

function processesMentioning(marker: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        const comm = readFileSync(`/proc/${e}/comm`, 'utf8').trim();
        // The pane's own shell holds the whole command line; it is tmux's, not ours.
        return (
          !['sh', 'bash', 'dash', 'sleep', 'tmux: server'].includes(comm) &&
          readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(marker)
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

void test(
  'opsmind chat in tmux: a deep question shows its steps and chart, Tab toggles the mode, Ctrl-C quits with nothing left',
  { skip: hasTmux ? false : 'tmux is not installed' },
  async () => {
    const dir = tempDir('opsmind-chat-');
    const data = salesCsv(dir);
    const done = join(dir, 'exited');
    const llm = await startFakeLlm([
      {
        kind: 'stream',
        chunks: streamChunks({
          toolCalls: [
            {
              name: 'run_code',
              id: 'call_1',
              arguments: JSON.stringify({
                code: 'print(df["revenue"].sum())\ndeclare_chart("bar", x="region", y="revenue", title="Revenue by region")',
              }),
            },
          ],
        }),
      },
      {
        kind: 'stream',
        chunks: streamChunks({
          toolCalls: [
            {
              name: 'final_answer',
              id: 'call_2',
              arguments: JSON.stringify({ answer: 'Revenue is highest in the West.' }),
            },
          ],
        }),
      },
    ]);
    const name = `opsmind-test-${process.pid}`;
    const env = `env -u CI OPSMIND_HOME=${q(testHome())} OPENAI_BASE_URL=${q(llm.baseUrl)} OPENAI_API_KEY=sk-test OPSMIND_MODEL=fake-model`;
    const command = `cd ${q(ROOT)} && ${env} ${q(process.execPath)} bin/opsmind.js chat ${q(data)} --mode deep -o ${q(join(dir, 'chat.html'))}; touch ${q(done)}; sleep 30`;
    execFileSync('tmux', ['new-session', '-d', '-s', name, '-x', '160', '-y', '50', command]);
    try {
      await waitFor(name, /opsmind chat · sales\.csv · mode deep/, 20_000);
      execFileSync('tmux', ['send-keys', '-t', name, '-l', 'Which region earns most?']);
      await sleep(300);
      execFileSync('tmux', ['send-keys', '-t', name, 'Enter']);
      const after = await waitFor(name, /Revenue is highest in the West\./, 60_000);
      assert.match(after, /\[deep\] Which region earns most\?/);
      assert.match(after, /→ run_code/);
      assert.match(after, /charts and tables \(1\)/);
      assert.match(after, /bar\s+Revenue by region/);
      assert.match(after, /West\s+█+/);
      assert.match(after, /report: .*chat\.html/);
      execFileSync('tmux', ['send-keys', '-t', name, 'Tab']);
      await waitFor(name, /mode fast/, 5_000);
      execFileSync('tmux', ['send-keys', '-t', name, 'C-c']);
      const deadline = Date.now() + 15_000;
      while (!existsSync(done) && Date.now() < deadline) await sleep(200);
      assert.ok(existsSync(done), 'the chat quit on Ctrl-C');
      await sleep(1000);
      assert.deepEqual(processesMentioning(data), [], 'no sandbox or worker process is left');
      assert.ok(existsSync(join(dir, 'chat.html')));
    } finally {
      spawnSync('tmux', ['kill-session', '-t', name]);
      await llm.close();
    }
  },
);
