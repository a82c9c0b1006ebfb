import { expectedFormName } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Something that uses a document type: while one exists, the document type cannot be deleted. */
export interface DocumentTypeReference {
  kind: 'form';
  name: string;
}

/**
 * What uses a document type (docs/reference-data.md, "When is a document type in use"): its
 * expected form (spec 9: 'EditIndividualId_' + the ID's letters and digits, lower-cased), when a
 * form of that name exists (form names are unique ignoring case). The form captures the document's data; deleting the type
 * under it would leave the form orphaned. New kinds of reference are added here.
 */
export async function documentTypeReferences(
  db: Kysely<Database>,
  documentTypeId: string,
): Promise<DocumentTypeReference[]> {
  const forms = await db
    .selectFrom('forms')
    .select('name')
    .where(sql`lower(name)`, '=', expectedFormName(documentTypeId).toLowerCase())
    .execute();
  return forms.map((form) => ({ kind: 'form' as const, name: form.name }));
}
