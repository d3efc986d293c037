/**
 * The one fold of stored events into what a person sees (src/ui/step-timeline.ts), fed the
 * stored events of real runs: a fast run, a deep run and a chat of two questions, recorded
 * with the CLI and the fake LLM (long tool output and findings' numbers trimmed). The plain
 * progress lines, the ink view and the chat timeline all come from its entries.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { SessionEventSchema } from '../src/shared/events.js';
import type { StoredEvent } from '../src/shared/events.js';
import { AnalyzeView, analyzeRows, analyzeTitle } from '../src/ui/AnalyzeView.js';
import { initialChatState, reduceChat } from '../src/ui/chat/chat-state.js';
import type { ChatAction, ChatState } from '../src/ui/chat/chat-state.js';
import { PlainProgress, plainLines } from '../src/ui/progress.js';
import { emptyTimeline, foldTimeline, timelineOf } from '../src/ui/step-timeline.js';
import type { TimelineState } from '../src/ui/step-timeline.js';
import { findingLines } from '../src/ui/timeline-text.js';

/** Stored events as the store hands them back: parsed by the events' schema, numbered from 1. */
function recorded(session: string, payloads: unknown[]): StoredEvent[] {
  return payloads.map((payload, i) => ({
    ...SessionEventSchema.parse(payload),
    session_id: session,
    seq: i + 1,
    created_at: `2026-12-01T12:00:${String(i).padStart(2, '0')}.000Z`,
  }));
}

/** `opsmind analyze examples/sales.csv --no-llm`, as stored. */
const FAST = recorded('63z9g245', [
  {
    type: 'session_started',
    command: 'analyze',
    mode: 'fast',
    data: {
      path: '/data/sales.csv',
      name: 'sales.csv',
      sha256: '99d7b562584728e376b6b605ee164b27e831bccd466d40ff6dea8353128447e8',
      size: 301681,
    },
    isolation: 'DuckDB v1.5.6',
  },
  { type: 'step_started', step: 1, tool: 'get_data_info', title: 'Profile the data' },
  {
    type: 'step_finished',
    step: 1,
    tool: 'get_data_info',
    duration_ms: 266.6,
    summary: '5,019 rows × 10 columns',
  },
  { type: 'step_started', step: 2, tool: 'plan_analysis', title: 'Plan the analyses' },
  {
    type: 'plan_created',
    step: 2,
    planner: 'heuristic',
    model: null,
    attempts: 0,
    fallback: null,
    analyses: [
      {
        title: 'Revenue per month',
        chart: 'line',
        why: 'How revenue moves over time, summed per month.',
      },
      {
        title: 'Revenue per month by region',
        chart: 'line',
        why: 'Whether the region groups move together or apart.',
      },
      {
        title: 'Revenue by region',
        chart: 'bar',
        why: 'Which region values contribute most to revenue.',
      },
      {
        title: 'Revenue by product',
        chart: 'bar',
        why: 'Which product values contribute most to revenue.',
      },
      {
        title: 'Share of revenue by region',
        chart: 'pie',
        why: "Each region's share of the total.",
      },
      {
        title: 'Distribution of revenue',
        chart: 'histogram',
        why: 'The typical revenue and how spread out it is (strongly skewed: log scale).',
      },
      {
        title: 'Distribution of unit_price',
        chart: 'histogram',
        why: 'The typical unit_price and how spread out it is (strongly skewed: log scale).',
      },
      {
        title: 'Revenue by region',
        chart: 'box',
        why: 'How revenue varies within and between region groups.',
      },
      {
        title: 'Correlations between numeric columns',
        chart: 'heatmap',
        why: 'Which measures rise and fall together.',
      },
      {
        title: 'Summary statistics',
        chart: 'table',
        why: 'Count, mean, spread and range of each measure.',
      },
    ],
    notes: [],
  },
  {
    type: 'step_finished',
    step: 2,
    tool: 'plan_analysis',
    duration_ms: 3.3,
    summary: '10 analyses by the heuristic planner',
  },
  { type: 'step_started', step: 3, tool: 'execute_analysis', title: 'Run the analyses and render' },
  {
    type: 'program_finished',
    step: 3,
    exit_code: 0,
    signal: null,
    stdout: '',
    stderr: '',
    duration_ms: 269.9,
    isolation: 'DuckDB v1.5.6',
    warm: true,
    limit_hit: null,
  },
  {
    type: 'artifact_added',
    step: 3,
    charts: [
      { id: 'c1', kind: 'line', title: 'Revenue per month', seq: 1 },
      { id: 'c2', kind: 'line', title: 'Revenue per month by region', seq: 2 },
      { id: 'c3', kind: 'bar', title: 'Revenue by region', seq: 3 },
    ],
    tables: [],
  },
  {
    type: 'insights_computed',
    step: 3,
    insights: [
      {
        text: 'In 2024, revenue was 12.6% higher than in 2023 (summing the 12 months of each year: 757,212 vs 672,493).',
        kind: 'year_over_year',
        analysis: 1,
        numbers: {},
      },
      {
        text: 'Revenue peaked at 143,703 in Dec 2024, the latest period.',
        kind: 'peak',
        analysis: 1,
        numbers: {},
      },
      {
        text: 'Revenue was lowest at 29,577 in Feb 2023.',
        kind: 'trough',
        analysis: 1,
        numbers: {},
      },
      {
        text: 'West accounts for 30.9% of revenue (441,568 of 1,429,705).',
        kind: 'top_share',
        analysis: 3,
        numbers: {},
      },
      {
        text: 'West has 1.4× the revenue of North (441,568 vs 317,156).',
        kind: 'top_vs_second',
        analysis: 3,
        numbers: {},
      },
      {
        text: 'The top 3 (West, North, East) account for 70.9% of revenue.',
        kind: 'top3_share',
        analysis: 3,
        numbers: {},
      },
      {
        text: 'Espresso Machine accounts for 26.1% of revenue (373,071 of 1,429,705).',
        kind: 'top_share',
        analysis: 4,
        numbers: {},
      },
      {
        text: 'Espresso Machine has 1.1× the revenue of Coffee Beans 1kg (373,071 vs 330,930).',
        kind: 'top_vs_second',
        analysis: 4,
        numbers: {},
      },
      {
        text: 'The top 3 (Espresso Machine, Coffee Beans 1kg, Grinder) account for 63.9% of revenue.',
        kind: 'top3_share',
        analysis: 4,
        numbers: {},
      },
      {
        text: 'The median revenue is 165; the middle half lies between 86.5 and 322 (IQR 236).',
        kind: 'spread',
        analysis: 6,
        numbers: {},
      },
      {
        text: 'Revenue is right-skewed: a long tail of large values (skew 15.73; mean 285 vs median 165).',
        kind: 'skew',
        analysis: 6,
        numbers: {},
      },
      {
        text: '365 values (7.3%) of revenue lie beyond 1.5 IQR of the quartiles (above 675).',
        kind: 'outliers',
        analysis: 6,
        numbers: {},
      },
      {
        text: 'The median unit_price is 24.2; the middle half lies between 16.5 and 54.4 (IQR 37.9).',
        kind: 'spread',
        analysis: 7,
        numbers: {},
      },
      {
        text: 'Unit_price is right-skewed: a long tail of large values (skew 2.86; mean 61.8 vs median 24.2).',
        kind: 'skew',
        analysis: 7,
        numbers: {},
      },
      {
        text: '744 values (14.8%) of unit_price lie beyond 1.5 IQR of the quartiles (above 111).',
        kind: 'outliers',
        analysis: 7,
        numbers: {},
      },
    ],
    failed: [],
  },
  {
    type: 'step_finished',
    step: 3,
    tool: 'execute_analysis',
    duration_ms: 306.5,
    summary: '10 of 10 charts and tables rendered',
  },
  { type: 'report_written', path: '/tmp/report.html', charts: 9, tables: 1 },
  { type: 'session_finished', status: 'done' },
]);

/**
 * `opsmind analyze examples/sales.csv --mode deep -q 'Which region earns most?'` against the fake LLM:
 * get_data_info, a KeyError, the fixed program with a chart, final_answer.
 */
const DEEP = recorded('r42qdg2m', [
  {
    type: 'session_started',
    command: 'analyze',
    mode: 'deep',
    data: {
      path: '/data/sales.csv',
      name: 'sales.csv',
      sha256: '99d7b562584728e376b6b605ee164b27e831bccd466d40ff6dea8353128447e8',
      size: 301681,
    },
    question: 'Which region earns most?',
    isolation: 'bubblewrap',
  },
  { type: 'question_asked', turn: 1, text: 'Which region earns most?' },
  {
    type: 'model_turn',
    turn: 1,
    text: null,
    tool_calls: [{ id: 'call_1', name: 'get_data_info', arguments: '{}' }],
    usage: { prompt: 12, completion: 7, total: 19, cost_usd: null },
    finish_reason: 'tool_calls',
  },
  {
    type: 'tool_result',
    turn: 1,
    step: 1,
    tool: 'get_data_info',
    call_id: 'call_1',
    ok: true,
    content:
      'Dataset sales.csv: 5,019 rows × 10 columns (csv, utf-8, ","); 0 duplicate rows.\nColumns:\n- date [datetime] 729 distinct; 2023-01-01T00:00:00 → 2024-12-31T00:00:00 (D); dates stored as text\n- region [category] 5 distinct; top: West (1,513), North (1,050), East (927), South (824), Central (705)\n- product [category] 7 distinct; top: Coffee Beans 1kg (1,202), Filter Papers (892), Milk Frother (728), French Press (691), Kettle (656)\n- channel [category] 3 distinct; top: Retail (2,453), Online (2,128), Wholesale (438)',
  },
  {
    type: 'model_turn',
    turn: 2,
    text: null,
    tool_calls: [
      { id: 'call_2', name: 'run_code', arguments: '{"code":"print(df[\\"Revenue\\"].sum())"}' },
    ],
    usage: { prompt: 12, completion: 7, total: 19, cost_usd: null },
    finish_reason: 'tool_calls',
  },
  {
    type: 'program_finished',
    step: 2,
    exit_code: 1,
    signal: null,
    stdout: '',
    stderr: "KeyError: 'Revenue'",
    duration_ms: 12.5,
    isolation: 'bubblewrap',
    warm: true,
    limit_hit: null,
  },
  { type: 'artifact_added', step: 2, charts: [], tables: [] },
  {
    type: 'tool_result',
    turn: 2,
    step: 2,
    tool: 'run_code',
    call_id: 'call_2',
    ok: false,
    content:
      'status: failed (exit 1)\n\nerror:\nTraceback (most recent call last):\n  File "/usr/lib/python3/dist-packages/pandas/core/indexes/base.py", line 3802, in get_loc\n    return self._engine.get_loc(casted_key)',
  },
  {
    type: 'model_turn',
    turn: 3,
    text: 'The column is lower case; retrying.',
    tool_calls: [
      {
        id: 'call_3',
        name: 'run_code',
        arguments:
          '{"code":"by = df.groupby(\\"region\\")[\\"revenue\\"].sum()\\ndeclare_chart(\\"bar\\", by.reset_index(), x=\\"region\\", y=\\"revenue\\", title=\\"Revenue by region\\")\\nprint(round(by.max()))"}',
      },
    ],
    usage: { prompt: 12, completion: 7, total: 19, cost_usd: null },
    finish_reason: 'tool_calls',
  },
  {
    type: 'program_finished',
    step: 3,
    exit_code: 0,
    signal: null,
    stdout: '441568\n',
    stderr: '',
    duration_ms: 20.3,
    isolation: 'bubblewrap',
    warm: true,
    limit_hit: null,
  },
  {
    type: 'artifact_added',
    step: 3,
    charts: [{ id: 'c1', kind: 'bar', title: 'Revenue by region', seq: 1 }],
    tables: [],
  },
  {
    type: 'tool_result',
    turn: 3,
    step: 3,
    tool: 'run_code',
    call_id: 'call_3',
    ok: true,
    content:
      'status: ok\n\nstdout:\n441568\n\ndeclared and valid (added to the report): c1 bar "Revenue by region"',
  },
  {
    type: 'model_turn',
    turn: 4,
    text: null,
    tool_calls: [
      {
        id: 'call_4',
        name: 'final_answer',
        arguments: '{"answer":"Revenue is highest in the West."}',
      },
    ],
    usage: { prompt: 12, completion: 7, total: 19, cost_usd: null },
    finish_reason: 'tool_calls',
  },
  {
    type: 'tool_result',
    turn: 4,
    step: 4,
    tool: 'final_answer',
    call_id: 'call_4',
    ok: true,
    content: 'the answer was recorded',
  },
  {
    type: 'answer',
    turn: 4,
    text: 'Revenue is highest in the West.',
    model: 'fake-model',
    stopped_by: 'answer',
  },
  { type: 'report_written', path: '/tmp/report.html', charts: 1, tables: 0 },
  { type: 'session_finished', status: 'done' },
]);

/**
 * A chat session on examples/sales.csv (the chat controller, the fake LLM): 'top regions' in fast mode
 * (the model's plan invalid twice, so the heuristic one), then a deep question.
 */
const CHAT = recorded('7pszr5cz', [
  {
    type: 'session_started',
    command: 'chat',
    mode: 'interactive',
    data: {
      path: '/data/sales.csv',
      name: 'sales.csv',
      sha256: '99d7b562584728e376b6b605ee164b27e831bccd466d40ff6dea8353128447e8',
      size: 301681,
    },
    isolation: 'bubblewrap',
  },
  { type: 'step_started', step: 1, tool: 'get_data_info', title: 'Profile the data' },
  {
    type: 'step_finished',
    step: 1,
    tool: 'get_data_info',
    duration_ms: 176.4,
    summary: '5,019 rows × 10 columns',
  },
  { type: 'step_started', step: 2, tool: 'plan_analysis', title: 'Plan the analyses' },
  {
    type: 'plan_created',
    step: 2,
    planner: 'heuristic',
    model: 'fake-model',
    attempts: 2,
    fallback:
      "the model's plan was invalid twice (the answer is not valid JSON: the answer holds no JSON object); the heuristic plan was used",
    analyses: [
      { title: 'top regions', chart: 'bar', why: 'Answers the question: "top regions"' },
      {
        title: 'Revenue per month',
        chart: 'line',
        why: 'How revenue moves over time, summed per month.',
      },
      {
        title: 'Revenue per month by region',
        chart: 'line',
        why: 'Whether the region groups move together or apart.',
      },
    ],
    notes: [],
  },
  {
    type: 'step_finished',
    step: 2,
    tool: 'plan_analysis',
    duration_ms: 102.5,
    summary: '10 analyses by the heuristic planner',
  },
  { type: 'step_started', step: 3, tool: 'execute_analysis', title: 'Run the analyses and render' },
  {
    type: 'program_finished',
    step: 3,
    exit_code: 0,
    signal: null,
    stdout: '',
    stderr: '',
    duration_ms: 348.5,
    isolation: 'DuckDB v1.5.6',
    warm: true,
    limit_hit: null,
  },
  {
    type: 'artifact_added',
    step: 3,
    charts: [
      { id: 'c1', kind: 'bar', title: 'top regions', seq: 1 },
      { id: 'c2', kind: 'line', title: 'Revenue per month', seq: 2 },
      { id: 'c3', kind: 'line', title: 'Revenue per month by region', seq: 3 },
    ],
    tables: [],
  },
  { type: 'report_written', path: '/tmp/report.html', charts: 9, tables: 1 },
  {
    type: 'insights_computed',
    step: 3,
    insights: [
      {
        text: 'West accounts for 30.9% of revenue (441,568 of 1,429,705).',
        kind: 'top_share',
        analysis: 1,
        numbers: {},
      },
      {
        text: 'West has 1.4× the revenue of North (441,568 vs 317,156).',
        kind: 'top_vs_second',
        analysis: 1,
        numbers: {},
      },
      {
        text: 'The top 3 (West, North, East) account for 70.9% of revenue.',
        kind: 'top3_share',
        analysis: 1,
        numbers: {},
      },
      {
        text: 'In 2024, revenue was 12.6% higher than in 2023 (summing the 12 months of each year: 757,212 vs 672,493).',
        kind: 'year_over_year',
        analysis: 2,
        numbers: {},
      },
      {
        text: 'Revenue peaked at 143,703 in Dec 2024, the latest period.',
        kind: 'peak',
        analysis: 2,
        numbers: {},
      },
      {
        text: 'Revenue was lowest at 29,577 in Feb 2023.',
        kind: 'trough',
        analysis: 2,
        numbers: {},
      },
    ],
    failed: [],
  },
  {
    type: 'step_finished',
    step: 3,
    tool: 'execute_analysis',
    duration_ms: 415.1,
    summary: '10 of 10 charts and tables rendered',
  },
  { type: 'question_asked', turn: 1, text: 'Which region earns most?' },
  {
    type: 'model_turn',
    turn: 1,
    text: 'Summing revenue by region.',
    tool_calls: [
      {
        id: 'call_1',
        name: 'run_code',
        arguments:
          '{"code":"by = df.groupby(\\"region\\")[\\"revenue\\"].sum()\\ndeclare_chart(\\"bar\\", by.reset_index(), x=\\"region\\", y=\\"revenue\\", title=\\"Revenue by region\\")\\nprint(by.idxmax())"}',
      },
    ],
    usage: { prompt: 12, completion: 7, total: 19, cost_usd: null },
    finish_reason: 'tool_calls',
  },
  {
    type: 'program_finished',
    step: 4,
    exit_code: 0,
    signal: null,
    stdout: 'West\n',
    stderr: '',
    duration_ms: 42,
    isolation: 'bubblewrap',
    warm: true,
    limit_hit: null,
  },
  {
    type: 'artifact_added',
    step: 4,
    charts: [{ id: 'c10', kind: 'bar', title: 'Revenue by region', seq: 1 }],
    tables: [],
  },
  { type: 'report_written', path: '/tmp/report.html', charts: 10, tables: 1 },
  {
    type: 'tool_result',
    turn: 1,
    step: 4,
    tool: 'run_code',
    call_id: 'call_1',
    ok: true,
    content:
      'status: ok\n\nstdout:\nWest\n\ndeclared and valid (added to the report): c10 bar "Revenue by region"',
  },
  {
    type: 'model_turn',
    turn: 2,
    text: null,
    tool_calls: [
      {
        id: 'call_2',
        name: 'final_answer',
        arguments: '{"answer":"Revenue is highest in the West."}',
      },
    ],
    usage: { prompt: 12, completion: 7, total: 19, cost_usd: null },
    finish_reason: 'tool_calls',
  },
  {
    type: 'tool_result',
    turn: 2,
    step: 5,
    tool: 'final_answer',
    call_id: 'call_2',
    ok: true,
    content: 'the answer was recorded',
  },
  {
    type: 'answer',
    turn: 2,
    text: 'Revenue is highest in the West.',
    model: 'fake-model',
    stopped_by: 'answer',
  },
  { type: 'session_finished', status: 'done' },
]);

/** The lines PlainProgress writes for these events, shown one at a time as a live run does. */
function plainOutput(events: readonly StoredEvent[]): string[] {
  const lines: string[] = [];
  const progress = new PlainProgress((line) => lines.push(line));
  for (const event of events) progress.show(event);
  return lines;
}

const chatText = (state: ChatState) => state.timeline.map((l) => l.text);

/** The chat's questions as the chat controller relays them: the events stored while each runs. */
function chatOf(questions: { question: string; events: StoredEvent[]; stream?: string }[]) {
  let state = initialChatState('fast');
  for (const [i, q] of questions.entries()) {
    if (i > 0) state = reduceChat(state, { type: 'toggle_mode' });
    state = reduceChat(state, { type: 'submitted', question: q.question });
    for (const event of q.events) {
      if (q.stream && event.type === 'model_turn')
        state = reduceChat(state, { type: 'text_delta', turn: event.turn, text: q.stream });
      state = reduceChat(state, { type: 'event', event });
    }
    state = reduceChat(state, { type: 'run_finished', reportPath: '/tmp/report.html' });
  }
  return state;
}

/** The chat's two questions: the session is opened (and closed) outside them. */
const askedAt = CHAT.findIndex((e) => e.type === 'question_asked');
const CHAT_QUESTIONS = [
  { question: 'top regions', events: CHAT.slice(1, askedAt) },
  {
    question: 'Which region earns most?',
    events: CHAT.slice(askedAt, -1),
    stream: 'Summing revenue',
  },
];

void test('a fast run: the session, three steps with their titles, the plan, every finding', () => {
  const { entries } = timelineOf(FAST);
  assert.deepEqual(
    entries.map((e) => e.kind),
    [
      'session',
      'step_started',
      'step_finished',
      'step_started',
      'plan',
      'step_finished',
      'step_started',
      'findings',
      'step_finished',
    ],
  );
  assert.deepEqual(entries[0], {
    kind: 'session',
    session: '63z9g245',
    command: 'analyze',
    source: 'sales.csv',
    mode: 'fast',
    isolation: 'DuckDB v1.5.6',
  });
  assert.deepEqual(entries[2], {
    kind: 'step_finished',
    step: 1,
    tool: 'get_data_info',
    title: 'Profile the data',
    summary: '5,019 rows × 10 columns',
    seconds: 0.2666,
  });
  const plan = entries[4];
  assert.equal(plan?.kind, 'plan');
  if (plan?.kind !== 'plan') return;
  assert.equal(plan.planner, 'heuristic');
  assert.equal(plan.analyses.length, 10);
  assert.deepEqual(plan.analyses[0], { title: 'Revenue per month', chart: 'line' });
  const findings = entries[7];
  assert.equal(findings?.kind === 'findings' && findings.texts.length, 15);
  if (findings?.kind !== 'findings') return;
  const listed = findingLines(findings.texts, 12);
  assert.equal(listed.items.length, 12);
  assert.equal(listed.items[0]?.startsWith('• In 2024, revenue was 12.6% higher'), true);
  assert.equal(listed.more, '(12 of 15 findings; all of them are in the report)');
  assert.deepEqual(findingLines(findings.texts.slice(0, 1), 12).more, null);
});

void test('a fast run: the plain progress lines, word for word as the CLI printed them', () => {
  assert.deepEqual(plainOutput(FAST), [
    'opsmind: analyze sales.csv (mode fast, isolation DuckDB v1.5.6, session 63z9g245)',
    '[1/3] get_data_info: Profile the data…',
    '[1/3] get_data_info: 5,019 rows × 10 columns (0.27 s)',
    '[2/3] plan_analysis: Plan the analyses…',
    '      planner: heuristic',
    '[2/3] plan_analysis: 10 analyses by the heuristic planner (0.00 s)',
    '[3/3] execute_analysis: Run the analyses and render…',
    '[3/3] execute_analysis: 10 of 10 charts and tables rendered (0.31 s)',
  ]);
});

void test('a fast run in the ink view: a step shows running, then done in its place', () => {
  const running = timelineOf(FAST.slice(0, 5));
  assert.equal(analyzeTitle(running), 'opsmind analyze · sales.csv · fast mode · session 63z9g245');
  assert.deepEqual(analyzeRows(running), [
    { text: '✔ get_data_info: 5,019 rows × 10 columns (0.27 s)', tone: 'done' },
    { text: '… plan_analysis: Plan the analyses…', tone: 'running' },
    { text: ' planner: heuristic', tone: 'dim' },
    ...[
      'line      Revenue per month',
      'line      Revenue per month by region',
      'bar       Revenue by region',
      'bar       Revenue by product',
      'pie       Share of revenue by region',
      'histogram Distribution of revenue',
      'histogram Distribution of unit_price',
      'box       Revenue by region',
      'heatmap   Correlations between numeric columns',
      'table     Summary statistics',
    ].map((text) => ({ text: ` ${text}`, tone: 'dim' })),
  ]);
  const done = analyzeRows(timelineOf(FAST));
  assert.deepEqual(
    done.filter((r) => r.tone !== 'dim'),
    [
      { text: '✔ get_data_info: 5,019 rows × 10 columns (0.27 s)', tone: 'done' },
      { text: '✔ plan_analysis: 10 analyses by the heuristic planner (0.00 s)', tone: 'done' },
      { text: '✔ execute_analysis: 10 of 10 charts and tables rendered (0.31 s)', tone: 'done' },
    ],
  );
  const app = render(createElement(AnalyzeView, { state: timelineOf(FAST) }));
  const frame = app.lastFrame() ?? '';
  app.unmount();
  assert.match(frame, /opsmind analyze · sales\.csv · fast mode · session 63z9g245/);
  assert.match(frame, /✔ execute_analysis: 10 of 10 charts and tables rendered \(0\.31 s\)/);
});

void test('a deep run: model turns with their tool calls and code, tool results, the answer', () => {
  const { entries } = timelineOf(DEEP);
  assert.deepEqual(
    entries.map((e) => e.kind),
    [
      'session',
      'question',
      ...['model_turn', 'tool_result', 'model_turn', 'tool_result'],
      ...['model_turn', 'tool_result', 'model_turn', 'tool_result'],
      'answer',
    ],
  );
  assert.deepEqual(entries[6], {
    kind: 'model_turn',
    turn: 3,
    text: 'The column is lower case; retrying.',
    calls: [
      {
        tool: 'run_code',
        code: 'by = df.groupby("region")["revenue"].sum()\ndeclare_chart("bar", by.reset_index(), x="region", y="revenue", title="Revenue by region")\nprint(round(by.max()))',
      },
    ],
    tokens: 19,
  });
  assert.deepEqual(entries[2], {
    kind: 'model_turn',
    turn: 1,
    text: null,
    calls: [{ tool: 'get_data_info', code: null }],
    tokens: 19,
  });
  assert.deepEqual(entries[5], {
    kind: 'tool_result',
    turn: 2,
    step: 2,
    tool: 'run_code',
    ok: false,
    lines: [
      'error:',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3/dist-packages/pandas/core/indexes/base.py", line 3802, in get_loc',
    ],
  });
  assert.deepEqual(entries.at(-1), {
    kind: 'answer',
    turn: 4,
    text: 'Revenue is highest in the West.',
  });
});

void test('a deep run: the plain progress lines, word for word as the CLI printed them', () => {
  assert.deepEqual(plainOutput(DEEP), [
    'opsmind: analyze sales.csv (mode deep, isolation bubblewrap, session r42qdg2m)',
    'question: Which region earns most?',
    '[turn 1] get_data_info (19 tokens)',
    '  step 1 get_data_info: ok — Dataset sales.csv: 5,019 rows × 10 columns (csv, utf-8, ","); 0 duplicate rows.',
    '[turn 2] run_code (19 tokens)',
    '  step 2 run_code: error — error:',
    '[turn 3] run_code (19 tokens)',
    '  step 3 run_code: ok — stdout:',
    '[turn 4] final_answer (19 tokens)',
    '  step 4 final_answer: ok — the answer was recorded',
  ]);
});

void test('a chat of two questions (fast, then deep): the timeline comes from the shared fold', () => {
  const state = chatOf(CHAT_QUESTIONS);
  assert.deepEqual(chatText(state), [
    '[fast] top regions',
    '✔ get_data_info: 5,019 rows × 10 columns (0.18 s)',
    'plan by the heuristic planner: top regions · Revenue per month · Revenue per month by region',
    '✔ plan_analysis: 10 analyses by the heuristic planner (0.10 s)',
    '• West accounts for 30.9% of revenue (441,568 of 1,429,705).',
    '• West has 1.4× the revenue of North (441,568 vs 317,156).',
    '• The top 3 (West, North, East) account for 70.9% of revenue.',
    '• In 2024, revenue was 12.6% higher than in 2023 (summing the 12 months of each year: 757,212 vs 672,493).',
    '• Revenue peaked at 143,703 in Dec 2024, the latest period.',
    '(5 of 6 findings; all of them are in the report)',
    '✔ execute_analysis: 10 of 10 charts and tables rendered (0.42 s)',
    '[deep] Which region earns most?',
    'Summing revenue by region.',
    '→ run_code',
    '  ✔ stdout: | West | declared and valid (added to the report): c10 bar "Revenue by region"',
    '→ final_answer',
    '  ✔ the answer was recorded',
    'Revenue is highest in the West.',
  ]);
  assert.match(state.timeline[13]?.code ?? '', /^by = df\.groupby\("region"\)/);
  assert.equal(state.streaming, '', 'the stored turn replaced the text streamed for it');
  assert.deepEqual(
    state.events,
    timelineOf(CHAT_QUESTIONS.flatMap((q) => q.events)),
    "the chat's timeline is the shared fold of the events it was shown",
  );
  assert.deepEqual(
    plainOutput(CHAT).filter((l) => l.startsWith('question: ')),
    ['question: Which region earns most?'],
  );
});

void test('the plain progress and the chat timeline agree on the step lines and the warnings', () => {
  const warning: StoredEvent = {
    type: 'warning',
    step: 3,
    message: 'chart 2 (line): 1 row has no date and was left out',
    session_id: '63z9g245',
    seq: 99,
    created_at: '2026-12-01T12:00:59.000Z',
  };
  for (const events of [[...FAST, warning], CHAT]) {
    const plain = plainOutput(events)
      .filter((l) => /^\[\d+\/3\] .*\(\d+\.\d+ s\)$/.test(l) || l.startsWith('warning: '))
      .map((l) => l.replace(/^\[\d+\/3\] /, ''));
    const chat = chatText(chatOf([{ question: 'q', events }]))
      .filter((l) => l.startsWith('✔ ') || l.startsWith('warning: '))
      .map((l) => l.replace(/^✔ /, ''));
    assert.equal(plain.length >= 3, true);
    assert.deepEqual(chat, plain);
  }
});

void test('the fold is incremental: from any point, folding the rest one at a time gives the whole', () => {
  for (const events of [FAST, DEEP, CHAT]) {
    const whole = timelineOf(events);
    let live: TimelineState = emptyTimeline;
    for (const [k, event] of events.entries()) {
      const before = live;
      live = foldTimeline(before, event);
      assert.deepEqual(
        live.entries.slice(0, before.entries.length),
        before.entries,
        'nothing already shown changes',
      );
      if (live.entries.length === before.entries.length)
        assert.equal(live, before, 'an event that adds nothing returns the same state');
      let resumed = timelineOf(events.slice(0, k + 1));
      for (const rest of events.slice(k + 1)) resumed = foldTimeline(resumed, rest);
      assert.deepEqual(resumed, whole);
    }
    assert.deepEqual(live, whole);
    assert.deepEqual(plainOutput(events), whole.entries.flatMap(plainLines));
  }
});

void test('stream actions and UI lines do not touch the fold; events alone do', () => {
  const actions: ChatAction[] = [
    { type: 'submitted', question: 'q' },
    { type: 'text_delta', turn: 1, text: 'half an answer' },
    { type: 'text_retracted', turn: 1, reason: 'the stream was cut' },
    { type: 'cancelled' },
    { type: 'run_finished', reportPath: null, error: 'cancelled' },
  ];
  const state = actions.reduce(reduceChat, initialChatState('deep'));
  assert.equal(state.events, initialChatState('deep').events);
  assert.equal(state.timeline.length, 4);
  const ignored = reduceChat(state, { type: 'event', event: DEEP.at(-1) as StoredEvent });
  assert.equal(ignored, state, 'session_finished adds nothing to the screen');
});
