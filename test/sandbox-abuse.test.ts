/**
 * The abuse suite: real escape and exhaustion attempts against the real
 * sandbox. Each case asserts containment and a clear result, then that the
 * host is unharmed and the next run works.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { executeProgram } from '../src/agent/execute-program.js';
import { detectIsolation } from '../src/sandbox/isolation.js';
import type { IsolationInfo } from '../src/sandbox/isolation.js';
import { DEFAULT_LIMITS } from '../src/sandbox/limits.js';
import type { Limits } from '../src/sandbox/limits.js';
import { findPython } from '../src/sandbox/python.js';
import type { PythonInfo } from '../src/sandbox/python.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import type { SandboxRun } from '../src/sandbox/sandbox.js';
import { preambleDir } from '../src/util/package-root.js';
import { ROOT, salesCsv, tempDir } from './helpers/fixtures.js';

const LIMITS: Limits = {
  ...DEFAULT_LIMITS,
  wallSeconds: 8,
  cpuSeconds: 3,
  memoryMb: 512,
  processes: 32,
  fileSizeMb: 16,
  openFiles: 64,
  outputBytes: 64 * 1024,
  diskMb: 32,
};
const CANARY = 'sk-canary-must-never-be-seen';

const python: PythonInfo = await findPython();
const isolation: IsolationInfo = await detectIsolation(python.path, preambleDir());
let sandbox: Sandbox;
let listener: Server;
let connections = 0;

before(async () => {
  process.env.OPENAI_API_KEY = CANARY;
  sandbox = await Sandbox.open({ python, dataPath: salesCsv(tempDir()), limits: LIMITS });
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
});

after(() => {
  sandbox.close();
  listener.close();
});

const strong = () => isolation.level === 'bubblewrap';

async function run(code: string): Promise<SandboxRun> {
  return sandbox.run({ code, scriptName: 'abuse.py' });
}

/** The next run works and the host process is fine. */
async function stillWorks(): Promise<void> {
  const next = await run('print("ok", df.shape)');
  assert.equal(next.exitCode, 0, next.stderr);
  assert.equal(next.stdout.trim(), 'ok (400, 7)');
}

void test('isolation level is detected and reported with a reason', () => {
  assert.ok(['bubblewrap', 'namespaces', 'rlimits'].includes(isolation.level));
  assert.ok(isolation.reason.length > 10);
  assert.equal(sandbox.isolation.level, isolation.level);
});

void test('fork bomb: contained by the process limit, reported in words', async () => {
  const r = await run('import os\nwhile True:\n    os.fork()\n');
  assert.notEqual(r.exitCode, 0);
  assert.match(r.limitHit ?? '', /process limit of 32 exceeded|wall-clock limit/);
  await stillWorks();
});

void test('memory bomb: MemoryError reported as the memory limit', async () => {
  const r = await run('chunks = []\nwhile True:\n    chunks.append(bytearray(64 * 1024 * 1024))\n');
  assert.equal(r.exitCode, 1);
  assert.equal(r.limitHit, 'memory limit of 512 MB exceeded (beyond the loaded data)');
  await stillWorks();
});

void test('CPU loop: stopped by the CPU time limit', async () => {
  const r = await run('while True:\n    pass\n');
  assert.equal(r.exitCode, null);
  assert.equal(r.limitHit, 'CPU time limit of 3 s exceeded');
  await stillWorks();
});

void test('sleep forever: stopped by the wall-clock limit', async () => {
  const started = performance.now();
  const r = await run('import time\ntime.sleep(10 ** 6)\n');
  assert.ok(performance.now() - started < 20_000);
  assert.equal(r.timedOut, true);
  assert.match(r.limitHit ?? '', /^wall-clock limit of 8 s exceeded/);
  await stillWorks();
});

void test('writing a 10 GB file: stopped by the file size limit', async () => {
  const r = await run(
    'with open("big.bin", "wb") as f:\n    for _ in range(10 * 1024):\n        f.write(b"0" * (1024 * 1024))\n',
  );
  assert.equal(r.exitCode, 1);
  assert.equal(r.limitHit, 'file size limit of 16 MB exceeded');
  await stillWorks();
});

void test('exhausting open files: stopped by the open-file limit', async () => {
  const r = await run('files = [open("/dev/null") for _ in range(100000)]\n');
  assert.equal(r.exitCode, 1);
  assert.equal(r.limitHit, 'open-file limit of 64 exceeded');
  await stillWorks();
});

void test(
  'host secrets and files are invisible: /etc/shadow, /root, the project, the environment',
  { skip: strong() ? false : 'needs bubblewrap' },
  async () => {
    const r = await run(`
import os
def probe(path):
    try:
        with open(path, "rb") as f:
            f.read(1)
        return "READABLE"
    except OSError as e:
        return type(e).__name__
print("shadow", probe("/etc/shadow"))
print("root", os.path.exists("/root") and os.listdir("/root"))
print("project", os.path.exists(${JSON.stringify(ROOT)}), probe(${JSON.stringify(join(ROOT, 'package.json'))}))
print("env", sorted(os.environ))
print("pid1env", open("/proc/1/environ", "rb").read().count(b"KEY") if os.access("/proc/1/environ", os.R_OK) else "unreadable")
print("uid", os.getuid())
`);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /^shadow FileNotFoundError$/m);
    assert.match(r.stdout, /^root False$/m);
    assert.match(r.stdout, /^project False FileNotFoundError$/m);
    assert.doesNotMatch(r.stdout, /OPENAI|canary/i);
    assert.match(r.stdout, /^uid 65534$/m);
    assert.doesNotMatch(r.stdout, new RegExp(CANARY));
    await stillWorks();
  },
);

void test('the host environment never reaches the program, at any isolation level', async () => {
  const r = await run(
    'import os\nprint(sorted(k for k in os.environ if "KEY" in k or "TOKEN" in k or "SECRET" in k))\n',
  );
  assert.equal(r.stdout.trim(), '[]');
});

void test(
  'network: no TCP to the host loopback, no route outside, no DNS',
  { skip: strong() ? false : 'needs a network namespace' },
  async () => {
    const port = (listener.address() as AddressInfo).port;
    const r = await run(`
import socket
def attempt(fn):
    try:
        fn()
        return "CONNECTED"
    except OSError as e:
        return type(e).__name__ + ":" + str(e.errno)
print("loopback", attempt(lambda: socket.create_connection(("127.0.0.1", ${port}), timeout=2)))
print("outside", attempt(lambda: socket.create_connection(("192.0.2.1", 80), timeout=2)))
print("dns", attempt(lambda: socket.getaddrinfo("example.com", 80)))
`);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /CONNECTED/);
    assert.match(
      r.stdout,
      /^outside OSError:101$/m,
      'no route: the packet never leaves the sandbox',
    );
    assert.match(r.stdout, /^dns gaierror/m);
    assert.equal(connections, 0, 'the host listener saw no connection');
    await stillWorks();
  },
);

void test('os.kill(os.getppid(), 9): the worker dies, the result says so, the next run gets a new worker', async () => {
  const r = await run(
    'import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nimport time\ntime.sleep(5)\n',
  );
  assert.notEqual(r.exitCode, 0);
  assert.ok(r.limitHit, 'the result explains what happened');
  await stillWorks();
});

void test(
  'setsid + double fork cannot outlive the run',
  { skip: strong() ? false : 'needs a pid namespace' },
  async () => {
    const r = await run(`
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(1.5)
        open("/work/escaped", "w").write("alive")
        time.sleep(60)
    os._exit(0)
print("parent done")
`);
    assert.equal(r.exitCode, 0, r.stderr);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal(
      existsSync(join(r.workdir, '..', '..', 'work', 'escaped')),
      false,
      'the grandchild was killed with the run',
    );
    await stillWorks();
  },
);

void test(
  'writing outside the work dir fails: /usr, the preamble, the data file',
  { skip: strong() ? false : 'needs bubblewrap' },
  async () => {
    const r = await run(`
def attempt(path):
    try:
        open(path, "a").write("x")
        return "WROTE"
    except OSError as e:
        return type(e).__name__
print(attempt("/usr/opsmind-escape"), attempt("/opsmind/preamble/opsmind_run.py"), attempt(DATA_PATH), attempt("/etc/opsmind-escape"))
`);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /WROTE/);
    assert.equal(existsSync('/usr/opsmind-escape'), false);
    assert.equal(existsSync('/etc/opsmind-escape'), false);
    await stillWorks();
  },
);

void test('a symlink to a host file declared as an artifact is refused', async () => {
  const secret = join(tempDir(), 'host-secret.json');
  writeFileSync(secret, '{"columns":["region","revenue"],"data":[["SECRET",1]]}');
  const outcome = await executeProgram(sandbox, {
    code: `import os\ndeclare_chart("bar", x="region", y="revenue")\nos.remove("artifacts/c1.json")\nos.symlink(${JSON.stringify(secret)}, "artifacts/c1.json")\n`,
    scriptName: 'abuse.py',
  });
  assert.equal(outcome.items.length, 1);
  assert.equal(outcome.items[0]?.built, undefined);
  assert.match(outcome.items[0]?.issues[0]?.message ?? '', /symlink/);
  assert.doesNotMatch(JSON.stringify(outcome.items), /SECRET/);
  await stillWorks();
});

void test('output flood: cut at the output limit with a visible marker', async () => {
  const r = await run('for i in range(200000):\n    print("spam" * 10)\n');
  assert.equal(r.stdoutTruncated, true);
  assert.match(r.stdout, /output truncated: [\d,]+ more bytes not shown/);
  assert.ok(r.stdout.length < 70 * 1024);
  await stillWorks();
});

void test('runs cannot see each other: df changes and files do not carry over', async () => {
  const first = await run(
    'df["leak"] = 1\nopen("note.txt", "w").write("x")\nprint("leak" in df.columns)\n',
  );
  assert.equal(first.stdout.trim(), 'True');
  const second = await run(
    'import os\nprint("leak" in df.columns, os.path.exists("note.txt"), sorted(os.listdir("/work")) if os.path.isdir("/work") else [])\n',
  );
  assert.match(second.stdout.trim(), /^False False/);
  assert.doesNotMatch(second.stdout, /r\d+'.*r\d+'/, 'only its own run dir is in /work');
});

void test('a cold run is contained the same way (no worker)', async () => {
  const cold = await Sandbox.open({
    python,
    dataPath: sandbox.options.dataPath,
    limits: LIMITS,
    warm: false,
  });
  try {
    const r = await cold.run({
      code: 'import os\nprint(sorted(k for k in os.environ if "KEY" in k))\nwhile True:\n    os.fork()\n',
      scriptName: 'abuse.py',
    });
    assert.match(r.stdout, /^\[\]$/m);
    assert.match(r.limitHit ?? '', /process limit of 32 exceeded|wall-clock limit/);
    assert.equal(r.warm, false);
  } finally {
    cold.close();
  }
});

void test('the host is unharmed: this process is alive and its files are intact', () => {
  assert.ok(readFileSync(join(ROOT, 'package.json'), 'utf8').includes('"name": "opsmind"'));
  assert.equal(process.env.OPENAI_API_KEY, CANARY);
});

const HOLDER = `
import { findPython } from ${JSON.stringify(join(ROOT, 'src/sandbox/python.ts'))};
import { Sandbox } from ${JSON.stringify(join(ROOT, 'src/sandbox/sandbox.ts'))};
import { DEFAULT_LIMITS } from ${JSON.stringify(join(ROOT, 'src/sandbox/limits.ts'))};
const sandbox = await Sandbox.open({ python: await findPython(), dataPath: process.argv[1], limits: DEFAULT_LIMITS });
const run = await sandbox.run({ code: 'print("warm")', scriptName: 'x.py' });
console.log(run.stdout.trim());
setInterval(() => undefined, 1000);`;

function processesMentioning(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker))
        found.push(Number(entry));
    } catch {
      continue;
    }
  }
  return found;
}

void test('a warm worker never outlives the CLI process: kill -9 of the host takes the sandbox with it', async () => {
  const dir = tempDir('opsmind-orphan-');
  const data = salesCsv(dir);
  const holder = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', HOLDER, data],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on('data', (c: Buffer) => {
      if (c.toString().includes('warm')) resolve();
    });
    holder.once('close', () => reject(new Error('the holder exited early')));
  });
  assert.ok(processesMentioning(data).length > 0, 'the worker is running');
  holder.kill('SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.deepEqual(processesMentioning(data), [], 'no sandbox process is left');
});
