/** Token usage and a cost estimate per model turn (prices per million tokens, for the models whose prices are public). */
import type { Usage } from '../llm/index.js';
import type { TokenUsage } from '../shared/events.js';

/** USD per million input / output tokens; a model not listed gets no estimate rather than a wrong one. */
const PRICES: readonly [RegExp, number, number][] = [
  [/^gpt-4o-mini/, 0.15, 0.6],
  [/^gpt-4o/, 2.5, 10],
  [/^gpt-4\.1-mini/, 0.4, 1.6],
  [/^gpt-4\.1-nano/, 0.1, 0.4],
  [/^gpt-4\.1/, 2, 8],
  [/^o4-mini/, 1.1, 4.4],
  [/^deepseek-chat/, 0.27, 1.1],
  [/^deepseek-reasoner/, 0.55, 2.19],
];

/** The usage of a turn with its estimated cost (null for unknown models). */
export function tokenUsage(model: string, usage: Usage | null): TokenUsage | null {
  if (!usage) return null;
  const price = PRICES.find(([re]) => re.test(model));
  const cost = price
    ? (usage.promptTokens * price[1] + usage.completionTokens * price[2]) / 1e6
    : null;
  return {
    prompt: usage.promptTokens,
    completion: usage.completionTokens,
    total: usage.totalTokens,
    cost_usd: cost === null ? null : Math.round(cost * 1e6) / 1e6,
  };
}

/** Sums turn usages; the cost is null if any turn's cost is unknown. */
export function sumUsage(usages: readonly (TokenUsage | null)[]): TokenUsage {
  const known = usages.filter((u): u is TokenUsage => u !== null);
  const unknownCost = known.some((u) => u.cost_usd === null) || known.length === 0;
  return {
    prompt: known.reduce((a, u) => a + u.prompt, 0),
    completion: known.reduce((a, u) => a + u.completion, 0),
    total: known.reduce((a, u) => a + u.total, 0),
    cost_usd: unknownCost
      ? null
      : Math.round(known.reduce((a, u) => a + (u.cost_usd ?? 0), 0) * 1e6) / 1e6,
  };
}
