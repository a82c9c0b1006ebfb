/**
 * What the field dialog suggests from the catalogue: the storage names a field can refer to
 * (alias, required fields, conditional requirements) and the UI groups in use.
 */
import { useMemo } from 'react';
import { caseInsensitive, DEFAULT_UI_GROUP } from '@console/contracts';
import { useFormFieldsQuery } from './api';

export interface FieldCatalogue {
  /** Storage names of the other fields; undefined while the catalogue is not loaded. */
  storageNames: string[] | undefined;
  uiGroups: string[];
}

/** The catalogue without the field being edited (`currentId`). */
export function useFieldCatalogue(currentId: number | undefined): FieldCatalogue {
  const fields = useFormFieldsQuery().data;
  return useMemo(() => {
    if (!fields) return { storageNames: undefined, uiGroups: [DEFAULT_UI_GROUP] };
    const others = fields.filter((field) => field.id !== currentId);
    const storageNames = others.map((field) => field.name).sort(caseInsensitive);
    const groups = new Set([DEFAULT_UI_GROUP, ...fields.map((field) => field.uiGroup)]);
    return { storageNames, uiGroups: [...groups].sort(caseInsensitive) };
  }, [fields, currentId]);
}
