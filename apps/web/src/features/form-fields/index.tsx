/**
 * The form fields screen (spec part 2, section 2, "Form fields list"): the catalogue of fields
 * that forms pick from, in the spec's order (UI group, order with a missing one last, display
 * name), with create, edit, clone (the field dialog) and delete after a confirmation.
 */
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  apiPath,
  compareFormFieldsForList,
  formFieldsApi,
  type FormField,
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
import { addNamespaces } from '@/lib/i18n';
import { serverMessage } from '@/lib/api-client';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { formFields } from '@/locales/en.json?formFields&lang.json';
import {
  formFieldErrorText,
  formFieldsQueryKeys,
  useDeleteFormFieldMutation,
  useFormFieldsQuery,
} from './api';
import { FieldDialog } from './field-dialog';
import { formFieldsColumns } from './form-fields-columns';

addNamespaces({ formFields });

type Dialogs = RowDialogs<'add' | 'edit' | 'clone' | 'delete', FormField>;

export default function FormFieldsPage() {
  const { t } = useTranslation();
  const dialogs: Dialogs = useRowDialogs();
  const { open, shown } = dialogs;
  return (
    <ListScreen
      title={t('pages.formFields')}
      exportList={{ path: apiPath(formFieldsApi.export), name: 'form-fields' }}
      actions={<AddButton label={t('formFields.add')} onClick={() => dialogs.show('add')} />}
      dialogs={
        <FieldDialog
          open={open === 'add' || open === 'edit' || open === 'clone'}
          onOpenChange={dialogs.onOpenChange}
          // The last dialog shown keeps its mode while it closes.
          mode={shown === 'edit' ? 'edit' : shown === 'clone' ? 'clone' : 'create'}
          field={shown === 'add' ? null : dialogs.row}
        />
      }
    >
      <FormFieldsTable dialogs={dialogs} />
    </ListScreen>
  );
}

function FormFieldsTable({ dialogs }: { dialogs: Dialogs }) {
  const { t } = useTranslation();
  const query = useFormFieldsQuery();
  const deleteField = useDeleteFormFieldMutation();
  const tableRef = useRef<DataTableHandle>(null);
  const { show } = dialogs;

  const fields = useMemo(() => query.data?.toSorted(compareFormFieldsForList), [query.data]);
  const columns = useMemo(
    () =>
      formFieldsColumns(t, {
        onEdit: (row) => show('edit', row),
        onClone: (row) => show('clone', row),
        onDelete: (row) => show('delete', row),
      }),
    [t, show],
  );

  return (
    <>
      <QueryTable<FormField>
        ref={tableRef}
        query={{ ...query, data: fields }}
        columns={columns}
        label={t('pages.formFields')}
        emptyText={t('formFields.empty')}
        errorText={(error) => formFieldErrorText('fetch', error, t)}
        pageSizeKey={PAGE_SIZE_KEYS.formFields}
        getRowId={(row) => String(row.id)}
      />
      <DeleteRowDialog<FormField>
        dialogs={dialogs}
        mutation={deleteField}
        queryKey={formFieldsQueryKeys.all}
        tableRef={tableRef}
        title={t('formFields.deleteTitle')}
        description={(row) =>
          t('formFields.deleteDescription', { name: row.name, displayName: row.displayName })
        }
        confirmLabel={t('formFields.deleteConfirm')}
        successText={() => t('formFields.deleted')}
        errorText={(error) => formFieldErrorText('delete', error, t)}
        errorDescription={serverMessage}
      />
    </>
  );
}
