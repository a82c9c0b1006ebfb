/**
 * The email templates list (spec part 2, section 2, "Email templates list"): Create new, the
 * sortable columns (templateKey ascending first), client-side sort and paging with the
 * email-templates page size, Edit and Delete (after confirmation) per row.
 */
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { apiPath, emailTemplatesApi, type EmailTemplateListItem } from '@console/contracts';
import { paths } from '@/app/paths';
import {
  AddButton,
  DeleteRowDialog,
  ListScreen,
  QueryTable,
  type DataTableHandle,
  type RowDialogs,
  useRowDialogs,
} from '@/components/data-table';
import { apiErrorText } from '@/lib/api-client';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { addNamespaces } from '@/lib/i18n';
import { emailTemplates } from '@/locales/en.json?emailTemplates&lang.json';
import {
  emailTemplatesQueryKeys,
  useDeleteEmailTemplateMutation,
  useEmailTemplatesQuery,
} from './api';
import { emailTemplatesColumns } from './email-templates-columns';

addNamespaces({ emailTemplates });

type Dialogs = RowDialogs<'delete', EmailTemplateListItem>;

export default function EmailTemplatesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dialogs: Dialogs = useRowDialogs();
  return (
    <ListScreen
      title={t('pages.emailTemplates')}
      exportList={{ path: apiPath(emailTemplatesApi.export), name: 'email-templates' }}
      actions={
        <AddButton
          label={t('emailTemplates.createNew')}
          onClick={() => void navigate(paths.newEmailTemplate())}
        />
      }
    >
      <EmailTemplatesTable dialogs={dialogs} />
    </ListScreen>
  );
}

function EmailTemplatesTable({ dialogs }: { dialogs: Dialogs }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const templates = useEmailTemplatesQuery();
  const deleteTemplate = useDeleteEmailTemplateMutation();
  const tableRef = useRef<DataTableHandle>(null);
  const { show } = dialogs;
  const columns = useMemo(
    () =>
      emailTemplatesColumns(t, {
        onEdit: (row) => void navigate(paths.emailTemplate(row.id)),
        onDelete: (row) => show('delete', row),
      }),
    [t, show, navigate],
  );
  return (
    <>
      <QueryTable<EmailTemplateListItem>
        ref={tableRef}
        query={templates}
        columns={columns}
        label={t('pages.emailTemplates')}
        emptyText={t('emailTemplates.empty')}
        pageSizeKey={PAGE_SIZE_KEYS.emailTemplates}
        initialSorting={[{ id: 'templateKey', desc: false }]}
        getRowId={(row) => String(row.id)}
      />
      <DeleteRowDialog<EmailTemplateListItem>
        dialogs={dialogs}
        mutation={deleteTemplate}
        queryKey={emailTemplatesQueryKeys.all}
        tableRef={tableRef}
        title={t('emailTemplates.deleteTitle')}
        description={(row) => t('emailTemplates.deleteDescription', { key: row.templateKey })}
        confirmLabel={t('emailTemplates.deleteConfirm')}
        successText={() => t('emailTemplates.deleted')}
        errorText={(error) => apiErrorText(error, t('emailTemplates.errors.deleteFailed'))}
      />
    </>
  );
}
