/**
 * The MCP server's metrics in the Prometheus text format (version 0.0.4): JSON-RPC requests by
 * method (tools/list and tools/call apart), tool calls by tool and outcome, and a latency
 * histogram per tool. Counters live in memory for the life of the process.
 */

/** Latency buckets in seconds (Prometheus' defaults, widened for sandboxed runs). */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** The request methods of MCP; a client cannot grow the series with names of its own. */
const METHODS = new Set([
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'tasks/get',
  'tasks/list',
  'tasks/result',
  'tasks/cancel',
]);

/** How a call ended. */
export type Outcome = 'ok' | 'tool_error' | 'error' | 'cancelled' | 'timeout';

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

/** A label value escaped as the text format requires. */
function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** The server's counters and histograms. */
export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly calls = new Map<string, number>();
  private readonly errors = new Map<string, number>();
  private readonly latency = new Map<string, Histogram>();
  private readonly started = Date.now();

  /** One JSON-RPC request by method (methods MCP does not define are counted as "other"). */
  request(method: string): void {
    const key = METHODS.has(method) ? method : 'other';
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
  }

  /** One finished tool call. */
  call(tool: string, outcome: Outcome, seconds: number): void {
    const key = `${tool}\u0000${outcome}`;
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
    if (outcome !== 'ok') this.errors.set(tool, (this.errors.get(tool) ?? 0) + 1);
    let h = this.latency.get(tool);
    if (!h) {
      h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.latency.set(tool, h);
    }
    BUCKETS.forEach((le, i) => {
      if (seconds <= le) h.counts[i] = (h.counts[i] ?? 0) + 1;
    });
    h.sum += seconds;
    h.count += 1;
  }

  /** The exposition text. */
  text(): string {
    const out: string[] = [];
    out.push(
      '# HELP opsmind_mcp_requests_total JSON-RPC requests received, by method.',
      '# TYPE opsmind_mcp_requests_total counter',
    );
    for (const [method, n] of [...this.requests].sort())
      out.push(`opsmind_mcp_requests_total{method="${label(method)}"} ${n}`);
    out.push(
      '# HELP opsmind_mcp_tool_calls_total Tool calls finished, by tool and outcome.',
      '# TYPE opsmind_mcp_tool_calls_total counter',
    );
    for (const [key, n] of [...this.calls].sort()) {
      const [tool, outcome] = key.split('\u0000') as [string, string];
      out.push(
        `opsmind_mcp_tool_calls_total{tool="${label(tool)}",outcome="${label(outcome)}"} ${n}`,
      );
    }
    out.push(
      '# HELP opsmind_mcp_tool_errors_total Tool calls that did not end ok, by tool.',
      '# TYPE opsmind_mcp_tool_errors_total counter',
    );
    for (const [tool, n] of [...this.errors].sort())
      out.push(`opsmind_mcp_tool_errors_total{tool="${label(tool)}"} ${n}`);
    out.push(
      '# HELP opsmind_mcp_tool_duration_seconds Tool call latency.',
      '# TYPE opsmind_mcp_tool_duration_seconds histogram',
    );
    for (const [tool, h] of [...this.latency].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const t = label(tool);
      BUCKETS.forEach((le, i) =>
        out.push(`opsmind_mcp_tool_duration_seconds_bucket{tool="${t}",le="${le}"} ${h.counts[i]}`),
      );
      out.push(`opsmind_mcp_tool_duration_seconds_bucket{tool="${t}",le="+Inf"} ${h.count}`);
      out.push(`opsmind_mcp_tool_duration_seconds_sum{tool="${t}"} ${h.sum.toFixed(6)}`);
      out.push(`opsmind_mcp_tool_duration_seconds_count{tool="${t}"} ${h.count}`);
    }
    out.push(
      '# HELP opsmind_mcp_uptime_seconds Seconds since the server started.',
      '# TYPE opsmind_mcp_uptime_seconds gauge',
      `opsmind_mcp_uptime_seconds ${((Date.now() - this.started) / 1000).toFixed(3)}`,
    );
    return `${out.join('\n')}\n`;
  }
}
