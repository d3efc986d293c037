/** The provider-neutral model seam: what the agent sends to a chat model and what it gets back. */

/** One message of a conversation, in the OpenAI chat shape every supported server understands. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  /** Only on assistant messages: the tool calls the model asked for. */
  tool_calls?: ToolCall[];
  /** Only on tool messages: the id of the call this message answers. */
  tool_call_id?: string;
  name?: string;
}

/** A tool call requested by the model. */
export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text exactly as the model sent it; may be malformed, the agent validates it. */
  arguments: string;
}

/** A function tool offered to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the arguments (derived from the tool's zod schema). */
  parameters: Record<string, unknown>;
}

/** Why a call is being retried; passed to `ChatRequest.onRetry`. */
export interface RetryNotice {
  /** The attempt that is about to start (2 for the first retry). */
  attempt: number;
  /** How long the retry waits before that attempt. */
  delayMs: number;
  /** One line saying what went wrong with the previous attempt. */
  reason: string;
}

/** One call to the model. */
export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  /** Ask for structured JSON output matching this schema. */
  responseFormat?: { name: string; schema: Record<string, unknown> };
  maxOutputTokens?: number;
  temperature?: number;
  /** Aborting stops the call, any retry wait, and any further attempt. */
  signal?: AbortSignal;
  /** When set, the answer is streamed and each text fragment is passed here as it arrives. */
  onTextDelta?: (text: string) => void;
  /**
   * Called before a failed attempt is retried. For a streamed call, text already
   * passed to `onTextDelta` belongs to the failed attempt and should be discarded.
   */
  onRetry?: (notice: RetryNotice) => void;
}

/** Token counts reported by the server for one response. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** The model's complete answer to one request (streamed or not, the shape is the same). */
export interface ChatResponse {
  text: string | null;
  toolCalls: ToolCall[];
  /** Null when the server did not report usage. */
  usage: Usage | null;
  finishReason: string | null;
  /** The model name the server reported (falls back to the requested one). */
  model: string;
}

/** Something that answers chat requests; the agent depends on this and nothing else. */
export interface ChatModel {
  readonly model: string;
  chat(request: ChatRequest): Promise<ChatResponse>;
}
