import { z } from 'zod';
import { apiRoute } from './api.ts';
import { idParamsSchema } from './ids.ts';
import { listPageQueryShape, pageSchema } from './pagination.ts';

/** Database Scripts (spec part 2, sections 2, 3 and 7). */

export const databaseScriptsApi = {
  list: apiRoute('GET', '/api/database-scripts'),
  history: apiRoute('GET', '/api/database-scripts/history'),
  execute: apiRoute('POST', '/api/database-scripts/execute/:id'),
} as const;

export const SCRIPT_TYPES = ['Maintenance', 'Report'] as const;
export type ScriptType = (typeof SCRIPT_TYPES)[number];

export const databaseScriptSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  type: z.enum(SCRIPT_TYPES),
  version: z.number().int(),
  content: z.string(),
});
export type DatabaseScript = z.infer<typeof databaseScriptSchema>;

export const databaseScriptListSchema = z.object({
  scripts: z.array(databaseScriptSchema),
  isUserAuthorizedForScripts: z.boolean(),
});
export type DatabaseScriptList = z.infer<typeof databaseScriptListSchema>;

export const SCRIPT_STATUSES = ['Running', 'Success', 'Failed'] as const;
export type ScriptStatus = (typeof SCRIPT_STATUSES)[number];

export const scriptExecutionSchema = z.object({
  id: z.number().int(),
  scriptId: z.number().int(),
  scriptName: z.string(),
  scriptVersion: z.number().int(),
  status: z.enum(SCRIPT_STATUSES),
  executedBy: z.string(),
  executedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  message: z.string().nullable(),
});
export type ScriptExecution = z.infer<typeof scriptExecutionSchema>;

/** The history, newest first, one page at a time (the paging contract: offset, limit). */
export const scriptHistoryQuerySchema = z.object(listPageQueryShape);
export const scriptHistoryPageSchema = pageSchema(scriptExecutionSchema);

/** A script is named by its catalogue id only: its SQL never travels in a request. */
export const scriptIdParamsSchema = idParamsSchema;

export const scriptExecutionResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  errorDetails: z.string().nullable(),
  /** The history row of this execution. */
  executionId: z.number().int(),
});
export type ScriptExecutionResult = z.infer<typeof scriptExecutionResultSchema>;

/** The spec's texts (section 8). */
export const databaseScriptMessages = {
  executed: (name: string) => `Script "${name}" executed successfully`,
  failed: 'Script execution failed',
  restricted: 'Script execution is restricted to authorized administrators only.',
  fetchFailed: (status: number | string) => `Failed to fetch database scripts: ${status}`,
} as const;
