/**
 * With an LLM, a short summary written from the computed findings only. Every
 * number in it must appear in the findings; a summary that cites any other
 * number is dropped (and the report says so), never shown.
 */
import type { ChatModel } from '../llm/index.js';
import type { Finding } from '../shared/events.js';

const SYSTEM = `You write the summary at the top of a data report. Use only the facts given; do not compute or invent numbers;
every number you write must appear verbatim in the facts. 2-4 sentences, plain language, no headings, no lists. Answer in the language of the question if one is given.`;

function numbersIn(text: string): string[] {
  return (text.match(/\d[\d,]*(?:\.\d+)?/g) ?? [])
    .map((n) => n.replace(/,/g, ''))
    .filter((n) => n.length > 1 || Number(n) > 9);
}

/** Numbers in `summary` that do not occur in `facts` (after removing thousands separators). */
export function unsupportedNumbers(summary: string, facts: string): string[] {
  const known = new Set(numbersIn(facts));
  return numbersIn(summary).filter((n) => !known.has(n) && !known.has(n.replace(/\.0+$/, '')));
}

/** The model's summary of the findings, or a reason it is left out. */
export async function summarizeFindings(
  model: ChatModel,
  findings: readonly Finding[],
  question: string | undefined,
  signal?: AbortSignal,
): Promise<{ text: string } | { skipped: string }> {
  if (findings.length === 0) return { skipped: 'no findings to summarise' };
  const facts = findings.map((f) => `- ${f.text}`).join('\n');
  try {
    const response = await model.chat({
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `${question ? `Question: ${question}\n` : ''}Facts:\n${facts}` },
      ],
      temperature: 0.2,
      maxOutputTokens: 400,
      ...(signal ? { signal } : {}),
    });
    const text = response.text?.trim() ?? '';
    if (!text) return { skipped: 'the model returned an empty summary' };
    const invented = unsupportedNumbers(text, facts);
    if (invented.length)
      return {
        skipped: `the model's summary cited numbers not in the findings (${invented.slice(0, 3).join(', ')}); it was left out`,
      };
    return { text };
  } catch (error) {
    return {
      skipped: `the summary could not be written (${(error as Error).message.split('\n')[0] ?? ''})`,
    };
  }
}
