import {
  normalizeTags,
  normalizeValidityPeriod,
  sanitizeDocumentTypeIdInput,
  validateDocumentTypeId,
  type ValidityPeriod,
} from '@console/contracts';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../schema.ts';
import vendorReferencesFile from './data/document-types-vendor-references.json' with { type: 'json' };
import { insertMissing, seedStamps } from './common.ts';

/**
 * The identity documents of the demo, one per row of data/document-types-vendor-references.json
 * (a copy of the shared reference file: its `sources` and `_note` say where each vendor code comes
 * from). The file gives the name and each verification vendor's code; what it does not give (tags,
 * a typical validity) is below, keyed by the file's code.
 */

const vendorReferencesSchema = z.object({
  _note: z.string(),
  sources: z.record(z.string(), z.string()),
  document_types: z
    .array(
      z.object({
        code: z.string().min(1),
        name: z.string().min(1),
        references: z.array(z.object({ service: z.string().min(1), value: z.string().min(1) })),
      }),
    )
    .min(1),
});

interface DocumentTypeExtras {
  tags: string[];
  /** A typical validity; null where it varies too much by issuer to state one. */
  validityPeriod: ValidityPeriod | null;
}

const EXTRAS: Record<string, DocumentTypeExtras> = {
  // ICAO 9303 passports; adults' passports are valid 10 years in most countries.
  PASSPORT: { tags: ['identity', 'photo', 'travel', 'mrz'], validityPeriod: { years: 10 } },
  // EU photocard licences (directive 2006/126/EC) and the UK photocard: 10 years.
  DRIVING_LICENCE: { tags: ['identity', 'photo', 'driving'], validityPeriod: { years: 10 } },
  NATIONAL_ID_CARD: { tags: ['identity', 'photo', 'mrz'], validityPeriod: { years: 10 } },
  RESIDENCE_PERMIT: { tags: ['identity', 'photo', 'residence'], validityPeriod: null },
  VISA: { tags: ['travel', 'immigration'], validityPeriod: null },
};

const DEFAULT_EXTRAS: DocumentTypeExtras = { tags: ['identity'], validityPeriod: null };

export interface SeedDocumentType {
  id: string;
  displayName: string;
  tags: string[];
  apiReferences: Record<string, string>;
  sequence: number;
  validityPeriod: ValidityPeriod | null;
}

/** The ID rule's form of a display name: 'National identity card' -> 'national_identity_card'. */
export function documentTypeIdFromName(name: string): string {
  return sanitizeDocumentTypeIdInput(
    name
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_'),
  );
}

/** The demo document types, in the file's order, with sequence 10, 20, ... */
export function demoDocumentTypes(): SeedDocumentType[] {
  const file = vendorReferencesSchema.parse(vendorReferencesFile);
  return file.document_types.map((row, index) => {
    const id = documentTypeIdFromName(row.name);
    const problem = validateDocumentTypeId(id);
    if (problem)
      throw new Error(`Document type ${row.code} gives the invalid ID '${id}': ${problem}`);
    const extras = EXTRAS[row.code] ?? DEFAULT_EXTRAS;
    return {
      id,
      displayName: row.name,
      tags: normalizeTags(extras.tags),
      apiReferences: Object.fromEntries(row.references.map((ref) => [ref.service, ref.value])),
      sequence: (index + 1) * 10,
      validityPeriod: normalizeValidityPeriod(extras.validityPeriod),
    };
  });
}

/** Inserts the demo document types that are missing; existing ones (maybe edited) stay as they are. */
export async function seedDocumentTypes(db: Kysely<Database>, now = new Date()): Promise<number> {
  const rows = demoDocumentTypes().map((type) => ({
    id: type.id,
    display_name: type.displayName,
    tags: type.tags,
    api_references: JSON.stringify(type.apiReferences),
    sequence: type.sequence,
    validity_period: type.validityPeriod ? JSON.stringify(type.validityPeriod) : null,
    ...seedStamps(now),
  }));
  return insertMissing(db, 'document_types', rows);
}
