/** LLM configuration from flags and the environment; secrets are never printed. */

/** What is configured for the model seam. */
export interface LlmConfig {
  baseUrl: string | null;
  model: string | null;
  apiKey: string | null;
}

/** Reads OPENAI_API_KEY, OPENAI_BASE_URL and OPSMIND_MODEL, with flags taking precedence. */
export function llmConfig(flags: { model?: string; baseUrl?: string } = {}, env: NodeJS.ProcessEnv = process.env): LlmConfig {
  return {
    baseUrl: flags.baseUrl ?? env.OPENAI_BASE_URL ?? null,
    model: flags.model ?? env.OPSMIND_MODEL ?? null,
    apiKey: env.OPENAI_API_KEY ?? null,
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
    status: llmConfigured(config) ? 'configured' : 'not configured: fast mode uses the heuristic planner; deep mode needs OPENAI_API_KEY or OPENAI_BASE_URL',
  };
}
