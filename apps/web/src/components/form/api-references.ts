/**
 * API references (service name to reference value) as a dialog edits them: rows of the
 * `KeyValueEditor` (`ApiReferencesField`), from and back to the map the contracts send. The rows'
 * own rules (a service named, once, not a name JavaScript objects reserve; a value given) are
 * checked here, each dialog wording them.
 */
import { isPrototypeKey } from '@console/contracts';

export interface ApiReferenceRow {
  service: string;
  value: string;
}

const serviceOrder = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The references by service name, as rows (the server keeps no order). */
export function apiReferenceRows(references: Readonly<Record<string, string>>): ApiReferenceRow[] {
  return Object.entries(references)
    .sort(([a], [b]) => serviceOrder.compare(a, b))
    .map(([service, value]) => ({ service, value }));
}

const isBlankRow = (row: ApiReferenceRow) => row.service.trim() === '' && row.value.trim() === '';

/** The map to send: blank rows left out, names and values trimmed. */
export function apiReferenceMap(rows: readonly ApiReferenceRow[]): Record<string, string> {
  return Object.fromEntries(
    rows.filter((row) => !isBlankRow(row)).map((row) => [row.service.trim(), row.value.trim()]),
  );
}

export type ApiReferenceProblemKind =
  'serviceRequired' | 'serviceTwice' | 'serviceReserved' | 'valueRequired';

export interface ApiReferenceProblem {
  index: number;
  part: keyof ApiReferenceRow;
  kind: ApiReferenceProblemKind;
  /** The row's service name, trimmed. */
  service: string;
}

/**
 * What is wrong with the rows, per cell: a row with a value but no service name, a service named
 * twice (after trimming) or by a prototype key (the contract's rule, keys.ts), a service without
 * a value. Blank rows are ignored (they are not sent).
 */
export function apiReferenceProblems(rows: readonly ApiReferenceRow[]): ApiReferenceProblem[] {
  const problems: ApiReferenceProblem[] = [];
  const services = new Set<string>();
  rows.forEach((row, index) => {
    if (isBlankRow(row)) return;
    const service = row.service.trim();
    if (service === '') problems.push({ index, part: 'service', kind: 'serviceRequired', service });
    else if (services.has(service)) {
      problems.push({ index, part: 'service', kind: 'serviceTwice', service });
    } else if (isPrototypeKey(service)) {
      problems.push({ index, part: 'service', kind: 'serviceReserved', service });
    }
    services.add(service);
    if (row.value.trim() === '') {
      problems.push({ index, part: 'value', kind: 'valueRequired', service });
    }
  });
  return problems;
}
