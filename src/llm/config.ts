/** LLM configuration from flags and the environment; secrets are never printed. */
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { seconds } from './errors.js';

/** The time limit of one model call attempt when neither --llm-timeout nor OPSMIND_LLM_TIMEOUT sets one. */
export const DEFAULT_LLM_TIMEOUT_MS = 120_000;

/** What is configured for the model seam. */
export interface LlmConfig {
  baseUrl: string | null;
  model: string | null;
  apiKey: string | null;
  /** Per attempt: for the whole answer, or between two chunks of a stream. */
  timeoutMs: number;
}

/** The flags every command that builds a model accepts. */
export interface LlmFlags {
  model?: string;
  baseUrl?: string;
  /** `--llm-timeout <seconds>`, as commander hands it over. */
  llmTimeout?: string;
}

function timeoutFrom(value: string, where: string): number {
  const s = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(s) || s <= 0) {
    throw new OpsmindError(
      `${where} must be a positive number of seconds, got "${value}"`,
      ExitCode.BAD_INPUT,
      `e.g. ${where === '--llm-timeout' ? '--llm-timeout 300' : 'OPSMIND_LLM_TIMEOUT=300'}`,
    );
  }
  return Math.round(s * 1000);
}

/**
 * Reads OPENAI_API_KEY, OPENAI_BASE_URL, OPSMIND_MODEL and OPSMIND_LLM_TIMEOUT, with flags
 * taking precedence. A timeout that is not a positive number of seconds is a usage error (exit 2).
 */
export function llmConfig(flags: LlmFlags = {}, env: NodeJS.ProcessEnv = process.env): LlmConfig {
  const timeout =
    flags.llmTimeout !== undefined
      ? timeoutFrom(flags.llmTimeout, '--llm-timeout')
      : env.OPSMIND_LLM_TIMEOUT
        ? timeoutFrom(env.OPSMIND_LLM_TIMEOUT, 'OPSMIND_LLM_TIMEOUT')
        : DEFAULT_LLM_TIMEOUT_MS;
  return {
    baseUrl: flags.baseUrl ?? env.OPENAI_BASE_URL ?? null,
    model: flags.model ?? env.OPSMIND_MODEL ?? null,
    apiKey: env.OPENAI_API_KEY ?? null,
    timeoutMs: timeout,
  };
}

/** True when an LLM can be called: a key or a base URL (local servers often need no key). */
export function llmConfigured(config: LlmConfig): boolean {
  return Boolean(config.apiKey ?? config.baseUrl);
}

/** A redacted description for `opsmind doctor`: never the key, only whether one is set. */
export function describeLlm(config: LlmConfig): Record<string, string> {
  return {
    endpoint: config.baseUrl ?? 'https://api.openai.com/v1 (default)',
    model: config.model ?? '(not set; OPSMIND_MODEL or --model)',
    api_key: config.apiKey ? `set (${config.apiKey.length} characters, not shown)` : 'not set',
    timeout: `${seconds(config.timeoutMs)} per attempt (OPSMIND_LLM_TIMEOUT or --llm-timeout)`,
    status: llmConfigured(config)
      ? 'configured'
      : 'not configured: fast mode uses the heuristic planner; deep mode needs OPENAI_API_KEY or OPENAI_BASE_URL',
  };
}
