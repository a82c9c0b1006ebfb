import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { expectedFormName, type DocumentType } from '@console/contracts';
import {
  actionsColumn,
  apiReferencesColumn,
  dateColumn,
  tagsColumn,
} from '@/components/data-table/columns';
import { numberSorting, textSorting } from '@/components/data-table/sorting';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';

export interface DocumentTypeColumnsOptions {
  /** The name shown for a document type: its translated label, or its display name. */
  nameOf: (documentType: DocumentType) => string;
  /**
   * Names of the forms that exist, lower-cased (form names are unique ignoring case, and the
   * forms service finds a form so); undefined while unknown (nothing is flagged then).
   */
  formNames: ReadonlySet<string> | undefined;
  onEdit: (documentType: DocumentType) => void;
  onDelete: (documentType: DocumentType) => void;
}

/**
 * The columns of the document types table (spec part 1, section 2, "Document types screen"):
 * every one sortable but the actions; tags and API references sort by their text.
 */
export function documentTypesColumns(
  t: TFunction,
  { nameOf, formNames, onEdit, onDelete }: DocumentTypeColumnsOptions,
): ColumnDef<DocumentType>[] {
  const notSet = t('documentTypes.notSet');
  return [
    {
      accessorKey: 'id',
      header: t('documentTypes.columns.id'),
      sortingFn: textSorting,
      cell: ({ row }) => {
        const { id } = row.original;
        const formName = expectedFormName(id);
        if (!formNames || formNames.has(formName.toLowerCase()))
          return <span className="font-mono">{id}</span>;
        return <MissingFormId id={id} message={t('documentTypes.formMissing', { formName })} />;
      },
    },
    {
      id: 'displayName',
      accessorFn: nameOf,
      header: t('documentTypes.columns.displayName'),
      sortingFn: textSorting,
      meta: { className: 'font-medium' },
    },
    tagsColumn<DocumentType>(t('documentTypes.columns.tags')),
    apiReferencesColumn<DocumentType>(t('documentTypes.columns.apiReferences')),
    {
      accessorKey: 'sequence',
      header: t('documentTypes.columns.sequence'),
      sortingFn: numberSorting,
      cell: ({ row }) => row.original.sequence ?? notSet,
    },
    dateColumn<DocumentType>('validFrom', t('documentTypes.columns.validFrom')),
    dateColumn<DocumentType>('validTo', t('documentTypes.columns.validTo')),
    actionsColumn(t('documentTypes.columns.actions'), (documentType: DocumentType) => ({
      editLabel: t('documentTypes.edit', { id: documentType.id }),
      onEdit: () => onEdit(documentType),
      deleteLabel: t('documentTypes.delete', { id: documentType.id }),
      onDelete: () => onDelete(documentType),
    })),
  ];
}

/**
 * The ID of a document type whose expected form is missing (spec 2 and 9): yellow, with the
 * reason in a tooltip on hover or focus, and in the cell's text for screen readers.
 */
function MissingFormId({ id, message }: { id: string; message: string }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span
          tabIndex={0}
          data-form-missing=""
          className="focus-visible:ring-ring/50 rounded-sm bg-yellow-100 px-1.5 py-0.5 font-mono text-yellow-950 outline-none focus-visible:ring-[3px]"
        >
          {id}
          <span className="sr-only">{`, ${message}`}</span>
        </span>
      </TooltipTrigger>
      <TooltipContent>{message}</TooltipContent>
    </Tooltip>
  );
}
