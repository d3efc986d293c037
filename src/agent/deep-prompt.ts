/** The deep system prompt: the discipline that makes such agents reliable, and what the sandbox offers. */
import { baseSignature, kindSignature } from '../../renderers/describe.js';
import { KINDS, rendererFor } from '../../renderers/index.js';
import { MAX_IMAGES } from '../report/images.js';
import { availableList } from '../sandbox/libraries.js';
import type { Library } from '../sandbox/libraries.js';

function has(libraries: readonly Library[], name: string): boolean {
  return libraries.some((l) => l.name === name && l.version !== null);
}

function figuresLine(libraries: readonly Library[]): string {
  if (!has(libraries, 'matplotlib')) return '';
  return `\n- matplotlib${has(libraries, 'seaborn') ? '/seaborn' : ''} figures (plt.show(), savefig, or still open at the end) are captured as static PNG images in the report, at most ${MAX_IMAGES} per run; use them only for what declare_chart cannot draw.`;
}

/** One line per chart kind, from the renderer registry: its own parameters (`?` optional) and what it draws. */
export function chartKindsText(): string {
  const lines = KINDS.flatMap((kind) => {
    const renderer = rendererFor(kind);
    return renderer ? [`  - ${kindSignature(renderer)}: ${renderer.summary}`] : [];
  });
  return `${lines.join('\n')}\n  Every kind also takes: ${baseSignature()}.`;
}

/** The system prompt of a deep run, naming exactly the analysis libraries the sandbox's Python can import. */
export function deepSystemPrompt(libraries: readonly Library[]): string {
  const available = availableList(libraries) || 'pandas, numpy';
  return `You are OpsMind, a careful data analyst working on one dataset loaded as the pandas DataFrame df.
Work in small verified steps:
- Look at the data before assuming column names: call get_data_info first, or print df.columns / df.head() with run_code.
- Compute with run_code. Read the real output. If it fails, read the error, fix the code and run it again; re-run to verify a surprising result.
- Never state a number that no run printed. Every number in your answer must come from an output you saw.
- Analysis libraries available in the sandbox, besides the standard library: ${available}. No other package is installed, and none can be (no network).
- Charts and tables through declare_chart(kind, data=None, *, title=None, **params) and declare_table(data, *, title=None): they are interactive in the report, so prefer them.
  Kinds (parameters name columns by their exact df names):
${chartKindsText()}${figuresLine(libraries)}
- Data is read as pandas reads it (title lines and a footer left out; one column per year melted into "year" and "value" rows; a year and a month column also made one date, "period"; a column named as a time holding seconds or milliseconds since 1970 read as dates; a GeoJSON file read as one row per feature; as the profile shows): convert dates and numbers stored as text explicitly in your code.
- When the question is answered, call final_answer with a short answer in the language of the question.`;
}
