/** The session's data profile, computed in the sandbox once and remembered (get_data_info, plan_analysis). */
import { sandboxProfile } from '../../engine/pandas-engine.js';
import type { DataProfile } from '../profile.js';
import { sandboxOf } from './tool.js';
import type { ToolContext } from './tool.js';

/** The profile in `ctx.memory`, profiling the data first if no call of the session has yet. */
export async function sessionProfile(ctx: ToolContext): Promise<DataProfile> {
  ctx.memory.profile ??= (
    ctx.engine
      ? await ctx.engine.profile(ctx.sourceName, ctx.signal)
      : await sandboxProfile(await sandboxOf(ctx), ctx.sourceName, ctx.signal)
  ).profile;
  return ctx.memory.profile;
}
