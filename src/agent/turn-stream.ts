/** The streaming callbacks of one model turn, as typed stream events for the views. */
import type { ChatRequest } from '../llm/index.js';
import type { StreamEvent } from '../shared/events.js';

/**
 * `onTextDelta` and `onRetry` for the model call of `turn`: fragments go out as
 * `text_delta`; a retry after text was shown sends `text_retracted`, so a view never
 * keeps the text of an attempt that failed (a cut stream) in front of the good one.
 */
export function turnStream(
  turn: number,
  onStream: ((event: StreamEvent) => void) | undefined,
): Pick<ChatRequest, 'onTextDelta' | 'onRetry'> {
  let shown = false;
  return {
    onTextDelta: (text) => {
      shown = true;
      onStream?.({ type: 'text_delta', turn, text });
    },
    onRetry: (notice) => {
      if (shown) onStream?.({ type: 'text_retracted', turn, reason: notice.reason });
      shown = false;
    },
  };
}
