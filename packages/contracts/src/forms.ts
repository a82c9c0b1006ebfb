import { z } from 'zod';
import { apiRoute } from './api.ts';

/**
 * One form of GET /svc/formauthoring/list (spec part 2: id, name, createdAt, updatedAt). The
 * document types screen reads it to flag document types whose expected form is missing.
 */
export const formListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type FormListItem = z.infer<typeof formListItemSchema>;

export const formListSchema = z.array(formListItemSchema);

/** The forms calls (method and path; see api.ts). */
export const formsApi = {
  list: apiRoute('GET', '/svc/formauthoring/list'),
} as const;
