/**
 * The values of the document type dialog and their rules (spec part 1, sections 2 and 5). The
 * rules are contracts' own (`validateDocumentTypeId`, `validityPeriodSchema`, the sequence of
 * `documentTypeCreateSchema`, `normalizeTags`), so the dialog refuses exactly what the server
 * would; only the words per field are the dialog's.
 */
import type { TFunction } from 'i18next';
import { z } from 'zod';
import {
  apiReferenceMap,
  apiReferenceProblems,
  apiReferenceRows,
  type ApiReferenceRow,
} from '@/components/form/api-references';
import {
  documentTypeCreateSchema,
  normalizeTags,
  normalizeValidityPeriod,
  validateDocumentTypeId,
  validityPeriodSchema,
  type DocumentType,
  type DocumentTypeCreate,
} from '@console/contracts';

export type DocumentTypeDialogMode = 'create' | 'edit';

/** What the inputs hold: numbers as typed, so that an empty field stays empty. */
export interface DocumentTypeFormValues {
  id: string;
  displayName: string;
  tags: string[];
  apiReferences: ApiReferenceRow[];
  sequence: string;
  years: string;
  months: string;
  days: string;
}

export const VALIDITY_PARTS = ['years', 'months', 'days'] as const;
export type ValidityPart = (typeof VALIDITY_PARTS)[number];

/** The fields of the server's paths that the form holds under other names (a 400 answer). */
export const documentTypeServerFields: Readonly<Record<string, ValidityPart>> = {
  'validityPeriod.years': 'years',
  'validityPeriod.months': 'months',
  'validityPeriod.days': 'days',
};

export const emptyDocumentTypeValues: DocumentTypeFormValues = {
  id: '',
  displayName: '',
  tags: [],
  apiReferences: [],
  sequence: '',
  years: '',
  months: '',
  days: '',
};

const numberText = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

/** The dialog's values for editing a document type. */
export function documentTypeFormValues(documentType: DocumentType): DocumentTypeFormValues {
  const period = documentType.validityPeriod;
  return {
    id: documentType.id,
    displayName: documentType.displayName,
    tags: [...documentType.tags],
    apiReferences: apiReferenceRows(documentType.apiReferences),
    sequence: numberText(documentType.sequence),
    years: numberText(period?.years),
    months: numberText(period?.months),
    days: numberText(period?.days),
  };
}

/** An input's number: null when empty, NaN when it is not a number (the rule refuses it). */
function numberOrNull(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/**
 * Save is enabled exactly when the display name is not empty and, in create mode, the ID is
 * valid (spec 2, "Document type dialog"); the other rules are checked when saving.
 */
export function canSaveDocumentType(
  mode: DocumentTypeDialogMode,
  values: Pick<DocumentTypeFormValues, 'id' | 'displayName'>,
): boolean {
  return (
    values.displayName.trim() !== '' &&
    (mode === 'edit' || validateDocumentTypeId(values.id) === null)
  );
}

/** The dialog's schema: each problem under its field, in the dialog's words. */
export function documentTypeFormSchema(mode: DocumentTypeDialogMode, t: TFunction) {
  return z
    .object({
      id: z.string(),
      displayName: z.string(),
      tags: z.array(z.string()),
      apiReferences: z.array(z.object({ service: z.string(), value: z.string() })),
      sequence: z.string(),
      years: z.string(),
      months: z.string(),
      days: z.string(),
    })
    .superRefine((values, ctx) => {
      if (mode === 'create') {
        const message = validateDocumentTypeId(values.id);
        if (message) ctx.addIssue({ code: 'custom', path: ['id'], message });
      }
      if (values.displayName.trim() === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['displayName'],
          message: t('documentTypes.dialog.errors.displayNameRequired'),
        });
      }
      const sequence = numberOrNull(values.sequence);
      if (!documentTypeCreateSchema.shape.sequence.safeParse(sequence).success) {
        ctx.addIssue({
          code: 'custom',
          path: ['sequence'],
          message: t('documentTypes.dialog.errors.sequence'),
        });
      }
      const period = validityPeriodSchema.safeParse(validityPeriodOf(values));
      const refused = new Set(period.error?.issues.map((issue) => issue.path[0]) ?? []);
      for (const part of VALIDITY_PARTS) {
        if (refused.has(part)) {
          ctx.addIssue({
            code: 'custom',
            path: [part],
            message: t(`documentTypes.dialog.errors.${part}`),
          });
        }
      }
      for (const { index, part, kind, service } of apiReferenceProblems(values.apiReferences)) {
        ctx.addIssue({
          code: 'custom',
          path: ['apiReferences', index, part],
          message: t(`documentTypes.dialog.errors.${kind}`, { service }),
        });
      }
    });
}

function validityPeriodOf(values: Pick<DocumentTypeFormValues, ValidityPart>) {
  return {
    years: numberOrNull(values.years),
    months: numberOrNull(values.months),
    days: numberOrNull(values.days),
  };
}

/**
 * The body of POST (create) or PUT (edit) from valid values: tags normalised, blank reference
 * rows left out, empty numbers null, a period with no part null (spec 5). Validity dates are not
 * fields of the dialog: an edit sends the stored ones back so that saving keeps them.
 */
export function documentTypeRequest(
  values: DocumentTypeFormValues,
  original?: Pick<DocumentType, 'validFrom' | 'validTo'>,
): DocumentTypeCreate {
  return {
    id: values.id,
    displayName: values.displayName.trim(),
    tags: normalizeTags(values.tags),
    apiReferences: apiReferenceMap(values.apiReferences),
    sequence: numberOrNull(values.sequence),
    validityPeriod: normalizeValidityPeriod(validityPeriodOf(values)),
    validFrom: original?.validFrom ?? null,
    validTo: original?.validTo ?? null,
  };
}
