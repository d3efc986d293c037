/** get_data_info: the dataset's profile, as the model reads it (within 8 KB) and as a person sees it. */
import { z } from 'zod';
import type { DataProfile } from '../profile.js';
import { profileText } from '../profile-text.js';
import { sessionProfile } from './data-profile.js';
import type { Tool } from './tool.js';

/** What a person sees: the profile itself. */
export interface DataInfoDisplay {
  kind: 'data_info';
  profile: DataProfile;
}

const schema = z.object({});

/** The get_data_info tool. */
export const getDataInfoTool: Tool<'get_data_info', typeof schema, DataInfoDisplay> = {
  name: 'get_data_info',
  description:
    'Profile of the dataset: columns, types, missing values, statistics, correlations. Call it first.',
  schema,
  example: {},
  async execute(_args, ctx) {
    const profile = await sessionProfile(ctx);
    return { forModel: profileText(profile), forDisplay: { kind: 'data_info', profile }, ok: true };
  },
};
