/**
 * The Forms screen (spec part 2, "Forms list"): the forms sorted by name and then the latest
 * update, loading / error / empty states, a banner with the outcome of the last action, Create
 * New Form, and per row Test, Edit, Clone and Delete (after confirmation).
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPath, compareFormsForList, formsApi, type FormListItem } from '@console/contracts';
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
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { forms, validation } from '@/locales/en.json?forms&lang.json';
import { formsErrorText, formsQueryKeys, useDeleteFormMutation, useFormListQuery } from './api';
import { FormDefinitionDialog } from './form-definition-dialog';
import type { FormDialogMode } from './form-definition-values';
import { FormTestDialog } from './form-test-dialog';
import { formsColumns, type FormRowAction } from './forms-columns';
import { FormsNotice, type Notice } from './forms-notice';

addNamespaces({ forms, validation });

type DialogKind = 'add' | 'edit' | 'clone' | 'test' | 'delete';
type Dialogs = RowDialogs<DialogKind, FormListItem>;

export default function FormsPage() {
  const { t } = useTranslation();
  const dialogs: Dialogs = useRowDialogs();
  // The definition dialog's mode outlives its opening, so that it keeps its title as it closes.
  const [mode, setMode] = useState<FormDialogMode>('create');
  const [notice, setNotice] = useState<Notice | null>(null);
  const onSaved = useCallback((text: string) => setNotice({ kind: 'success', text }), []);
  const { show } = dialogs;
  const open = useCallback(
    (kind: DialogKind, form?: FormListItem) => {
      if (kind === 'add') setMode('create');
      if (kind === 'edit' || kind === 'clone') setMode(kind);
      show(kind, form);
    },
    [show],
  );

  return (
    <ListScreen
      title={t('pages.forms')}
      exportList={{ path: apiPath(formsApi.export), name: 'forms' }}
      actions={<AddButton label={t('forms.createNew')} onClick={() => open('add')} />}
      dialogs={
        <>
          <FormDefinitionDialog
            open={dialogs.open === 'add' || dialogs.open === 'edit' || dialogs.open === 'clone'}
            onOpenChange={dialogs.onOpenChange}
            mode={mode}
            form={dialogs.row}
            onSaved={onSaved}
          />
          <FormTestDialog
            open={dialogs.open === 'test'}
            onOpenChange={dialogs.onOpenChange}
            formName={dialogs.row?.name ?? null}
          />
        </>
      }
    >
      <div className="grid gap-4">
        {notice && <FormsNotice notice={notice} onDismiss={() => setNotice(null)} />}
        <FormsTable dialogs={dialogs} onAction={open} onNotice={setNotice} />
      </div>
    </ListScreen>
  );
}

function FormsTable({
  dialogs,
  onAction,
  onNotice,
}: {
  dialogs: Dialogs;
  onAction: (kind: FormRowAction, form: FormListItem) => void;
  onNotice: (notice: Notice) => void;
}) {
  const { t } = useTranslation();
  const list = useFormListQuery();
  const tableRef = useRef<DataTableHandle>(null);
  const deleteText = (error: unknown) =>
    formsErrorText(error, (status) => t('forms.errors.deleteFailed', { status }));
  const deleteForm = useDeleteFormMutation({
    onSuccess: () => onNotice({ kind: 'success', text: t('forms.deleted') }),
    onError: (error) => onNotice({ kind: 'error', text: deleteText(error) }),
  });
  const columns = useMemo(() => formsColumns(t, onAction), [t, onAction]);
  // Spec 2: by name ignoring case, then the latest update first.
  const sorted = useMemo(() => list.data && [...list.data].sort(compareFormsForList), [list.data]);

  return (
    <>
      <QueryTable<FormListItem>
        ref={tableRef}
        query={{ ...list, data: sorted }}
        columns={columns}
        label={t('pages.forms')}
        emptyText={t('forms.empty')}
        loadingText={t('forms.loading')}
        errorText={(error) =>
          formsErrorText(error, (status) => t('forms.errors.fetchFailed', { status }))
        }
        pageSizeKey={PAGE_SIZE_KEYS.forms}
        getRowId={(row) => String(row.id)}
      />
      <DeleteRowDialog<FormListItem>
        dialogs={dialogs}
        mutation={deleteForm}
        queryKey={formsQueryKeys.all}
        tableRef={tableRef}
        title={t('forms.deleteTitle')}
        description={(row) => t('forms.deleteDescription', { name: row.name })}
        confirmLabel={t('forms.deleteConfirm')}
        successText={() => t('forms.deleted')}
        errorText={deleteText}
      />
    </>
  );
}
