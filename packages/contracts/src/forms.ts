import { z } from 'zod';

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
