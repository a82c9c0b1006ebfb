/**
 * The document types screen (spec part 1, section 2, "Document types screen"): the sortable,
 * paged table of document types with the yellow ID of a type whose expected form is missing, the
 * create and edit dialog, deleting (admins; section 8 gives every refusal's text) and importing
 * from a JSON file.
 */
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  apiPath,
  documentTypeImportFile,
  documentTypesApi,
  type DocumentType,
} from '@console/contracts';
import {
  AddButton,
  DeleteRowDialog,
  ListScreen,
  QueryTable,
  type DataTableHandle,
  type RowDialogs,
  useRowDialogs,
} from '@/components/data-table';
import { ImportJsonButton } from '@/components/import-json-button';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import {
  deleteDocumentTypeErrorText,
  documentTypesQueryKeys,
  useDeleteDocumentTypeMutation,
  useDocumentTypesQuery,
  useImportDocumentTypesMutation,
} from './api';
import { useFormListQuery } from '@/features/forms/api';
import { DocumentTypeDialog } from './document-type-dialog';
import { documentTypesColumns } from './document-types-columns';
import { addNamespaces } from '@/lib/i18n';
import { documentTypes, documentType } from '@/locales/en.json?documentTypes&lang.json';

addNamespaces({ documentTypes, documentType });

type Dialogs = RowDialogs<'add' | 'edit' | 'delete', DocumentType>;

export default function DocumentTypesPage() {
  const { t } = useTranslation();
  const importDocumentTypes = useImportDocumentTypesMutation();
  const dialogs: Dialogs = useRowDialogs();

  return (
    <ListScreen
      title={t('pages.documentTypes')}
      exportList={{ path: apiPath(documentTypesApi.export), name: 'document-types' }}
      actions={
        <>
          <AddButton label={t('documentTypes.add')} onClick={() => dialogs.show('add')} />
          <ImportJsonButton
            label={t('documentTypes.import')}
            file={documentTypeImportFile}
            importRecords={importDocumentTypes.mutateAsync}
            successMessage={(count) => t('documentTypes.imported', { count })}
          />
        </>
      }
      dialogs={
        <DocumentTypeDialog
          open={dialogs.open === 'add' || dialogs.open === 'edit'}
          onOpenChange={dialogs.onOpenChange}
          documentType={dialogs.open === 'add' ? null : dialogs.row}
        />
      }
    >
      <DocumentTypesTable dialogs={dialogs} />
    </ListScreen>
  );
}

function DocumentTypesTable({ dialogs }: { dialogs: Dialogs }) {
  const { t, i18n } = useTranslation();
  const documentTypes = useDocumentTypesQuery();
  const forms = useFormListQuery();
  const deleteDocumentType = useDeleteDocumentTypeMutation();
  const tableRef = useRef<DataTableHandle>(null);
  const { show } = dialogs;

  const formNames = useMemo(
    () => (forms.data ? new Set(forms.data.map((form) => form.name.toLowerCase())) : undefined),
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
        onEdit: (row) => show('edit', row),
        onDelete: (row) => show('delete', row),
      }),
    [t, i18n, formNames, show],
  );

  return (
    <>
      <QueryTable<DocumentType>
        ref={tableRef}
        query={documentTypes}
        columns={columns}
        label={t('pages.documentTypes')}
        emptyText={t('documentTypes.empty')}
        pageSizeKey={PAGE_SIZE_KEYS.documentTypes}
        getRowId={(row) => row.id}
      />
      <DeleteRowDialog<DocumentType>
        dialogs={dialogs}
        mutation={deleteDocumentType}
        queryKey={documentTypesQueryKeys.all}
        tableRef={tableRef}
        title={t('documentTypes.deleteTitle')}
        description={(row) => t('documentTypes.deleteDescription', { id: row.id })}
        confirmLabel={t('documentTypes.deleteConfirm')}
        successText={(row) => t('documentTypes.deleted', { id: row.id })}
        errorText={(error, row) => deleteDocumentTypeErrorText(error, row, t)}
      />
    </>
  );
}
