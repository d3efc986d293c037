/**
 * A deep session's conversation rebuilt from its stored events, for
 * follow-up questions: questions, model turns and tool results, trimmed to a
 * token budget by dropping the oldest exchanges (never half of one) and
 * shortening old tool output.
 */
import type { ChatMessage } from '../llm/index.js';
import type { StoredEvent } from '../shared/events.js';

/** Rough token estimate: four characters a token. */
const tokens = (messages: readonly ChatMessage[]) =>
  messages.reduce(
    (n, m) =>
      n + Math.ceil(((m.content ?? '').length + JSON.stringify(m.tool_calls ?? []).length) / 4),
    0,
  );

/** The conversation of a session as chat messages (without the system prompt), within `budget` tokens. */
export function historyFromEvents(
  events: readonly StoredEvent[],
  sourceName: string,
  budget = 12_000,
): ChatMessage[] {
  const exchanges: ChatMessage[][] = [];
  for (const event of events) {
    if (event.type === 'question_asked')
      exchanges.push([
        { role: 'user', content: `Dataset: ${sourceName}\nQuestion: ${event.text}` },
      ]);
    const current = exchanges.at(-1);
    if (!current) continue;
    if (event.type === 'model_turn')
      current.push({
        role: 'assistant',
        content: event.text,
        ...(event.tool_calls.length ? { tool_calls: event.tool_calls } : {}),
      });
    if (event.type === 'tool_result')
      current.push({ role: 'tool', tool_call_id: event.call_id, content: event.content });
  }
  const complete = exchanges.map(dropUnanswered);
  while (complete.length > 1 && tokens(complete.flat()) > budget) complete.shift();
  return complete.flatMap((exchange, i) =>
    i < complete.length - 1 ? exchange.map(shorten) : exchange,
  );
}

/** Drops assistant tool calls whose results were never stored (a crash mid-turn): the API rejects them. */
function dropUnanswered(exchange: ChatMessage[]): ChatMessage[] {
  const answered = new Set(exchange.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
  return exchange
    .flatMap((m) => {
      if (m.role !== 'assistant' || !m.tool_calls) return [m];
      const calls = m.tool_calls.filter((c) => answered.has(c.id));
      return [
        {
          ...m,
          ...(calls.length ? { tool_calls: calls } : { tool_calls: undefined }),
          content: m.content ?? (calls.length ? null : '(no answer)'),
        },
      ];
    })
    .map((m) =>
      m.tool_calls === undefined
        ? {
            role: m.role,
            content: m.content,
            ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
          }
        : m,
    );
}

function shorten(message: ChatMessage): ChatMessage {
  if (message.role !== 'tool' || (message.content ?? '').length <= 1200) return message;
  return {
    ...message,
    content: `${(message.content ?? '').slice(0, 1200)}\n… [older output shortened]`,
  };
}
