/**
 * The document types screen (spec part 1, section 2, "Document types screen"): the sortable,
 * paged table of document types with the yellow ID of a type whose expected form is missing, the
 * create and edit dialog, deleting (admins; section 8 gives every refusal's text) and importing
 * from a JSON file.
 */
import { useCallback, useMemo, useRef, useState, type RefObject } from 'react';
import { PlusIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { documentTypeImportFile, type DocumentType } from '@console/contracts';
import {
  ConfirmDialog,
  DataTable,
  WaitingForConfiguration,
  type DataTableHandle,
  useDeleteRow,
} from '@/components/data-table';
import { ImportJsonButton } from '@/components/import-json-button';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import {
  deleteDocumentTypeErrorText,
  documentTypesQueryKeys,
  useDeleteDocumentTypeMutation,
  useDocumentTypesQuery,
  useFormListQuery,
  useImportDocumentTypesMutation,
} from './api';
import { DocumentTypeDialog } from './document-type-dialog';
import { documentTypesColumns } from './document-types-columns';

/** Which dialog is open, and for which document type (kept while the dialog closes). */
interface DialogState {
  open: 'add' | 'edit' | 'delete' | null;
  currentRow: DocumentType | null;
}

export default function DocumentTypesPage() {
  const { t } = useTranslation();
  const importDocumentTypes = useImportDocumentTypesMutation();
  const tableRef = useRef<DataTableHandle>(null);
  const [dialog, setDialog] = useState<DialogState>({ open: null, currentRow: null });
  const onEdit = useCallback(
    (row: DocumentType) => setDialog({ open: 'edit', currentRow: row }),
    [],
  );
  const onDelete = useCallback(
    (row: DocumentType) => setDialog({ open: 'delete', currentRow: row }),
    [],
  );

  return (
    <>
      <PageHeader
        title={t('pages.documentTypes')}
        actions={
          <>
            <Button onClick={() => setDialog({ open: 'add', currentRow: null })}>
              <PlusIcon aria-hidden="true" />
              {t('documentTypes.add')}
            </Button>
            <ImportJsonButton
              label={t('documentTypes.import')}
              file={documentTypeImportFile}
              importRecords={importDocumentTypes.mutateAsync}
              successMessage={(count) => t('documentTypes.imported', { count })}
            />
          </>
        }
      />
      <WaitingForConfiguration>
        <DocumentTypesTable tableRef={tableRef} onEdit={onEdit} onDelete={onDelete} />
      </WaitingForConfiguration>
      <DocumentTypesDialogs dialog={dialog} setDialog={setDialog} tableRef={tableRef} />
    </>
  );
}

function DocumentTypesTable({
  tableRef,
  onEdit,
  onDelete,
}: {
  tableRef: RefObject<DataTableHandle | null>;
  onEdit: (documentType: DocumentType) => void;
  onDelete: (documentType: DocumentType) => void;
}) {
  const { t, i18n } = useTranslation();
  const documentTypes = useDocumentTypesQuery();
  const forms = useFormListQuery();

  const formNames = useMemo(
    () => (forms.data ? new Set(forms.data.map((form) => form.name)) : undefined),
    [forms.data],
  );
  const columns = useMemo(
    () =>
      documentTypesColumns(t, {
        // A translated label under documentType.{id} is used for the name when present (spec 2).
        nameOf: (documentType) => {
          const key = `documentType.${documentType.id}`;
          return i18n.exists(key) ? t(key) : documentType.displayName;
        },
        formNames,
        onEdit,
        onDelete,
      }),
    [t, i18n, formNames, onEdit, onDelete],
  );

  return (
    <DataTable<DocumentType>
      ref={tableRef}
      columns={columns}
      data={documentTypes.data}
      label={t('pages.documentTypes')}
      emptyText={t('documentTypes.empty')}
      pageSizeKey={PAGE_SIZE_KEYS.documentTypes}
      getRowId={(row) => row.id}
      isLoading={documentTypes.isPending}
      error={documentTypes.isError ? documentTypes.error : undefined}
      onRetry={() => void documentTypes.refetch()}
    />
  );
}

function DocumentTypesDialogs({
  dialog,
  setDialog,
  tableRef,
}: {
  dialog: DialogState;
  setDialog: (update: (current: DialogState) => DialogState) => void;
  tableRef: RefObject<DataTableHandle | null>;
}) {
  const { t } = useTranslation();
  const deleteDocumentType = useDeleteDocumentTypeMutation();
  const closeDialog = () => setDialog((current) => ({ ...current, open: null }));
  const documentType = dialog.currentRow;

  const deleteRow = useDeleteRow<DocumentType>({
    mutate: deleteDocumentType.mutate,
    queryKey: documentTypesQueryKeys.all,
    tableRef,
    successText: (row) => t('documentTypes.deleted', { id: row.id }),
    errorText: (error, row) => deleteDocumentTypeErrorText(error, row, t),
    onSettled: closeDialog,
  });

  return (
    <>
      <DocumentTypeDialog
        open={dialog.open === 'add' || dialog.open === 'edit'}
        onOpenChange={(open) => {
          if (!open) closeDialog();
        }}
        documentType={dialog.open === 'add' ? null : documentType}
      />
      <ConfirmDialog
        open={dialog.open === 'delete'}
        onOpenChange={(open) => {
          if (!open) closeDialog();
        }}
        title={t('documentTypes.deleteTitle')}
        description={
          documentType ? t('documentTypes.deleteDescription', { id: documentType.id }) : ''
        }
        confirmLabel={t('documentTypes.deleteConfirm')}
        destructive
        isPending={deleteDocumentType.isPending}
        onConfirm={() => documentType && deleteRow(documentType)}
      />
    </>
  );
}
