/**
 * The openai package, loaded on first use: fast mode without a model never pays for it
 * (≈ 90 ms of start-up). Loaded with `require`, so every module sees the same classes.
 */
import type * as OpenAISdk from 'openai';
import { createRequire } from 'node:module';

let sdk: typeof OpenAISdk | undefined;

/** The openai module (client and error classes), required once. */
export function openaiSdk(): typeof OpenAISdk {
  sdk ??= createRequire(import.meta.url)('openai') as typeof OpenAISdk;
  return sdk;
}
