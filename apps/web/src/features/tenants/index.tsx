/**
 * The tenants screen (spec part 1, section 2, "Tenants screen"): the sortable, paged table of
 * tenants, the add and edit dialog, the profile dialog (dynamic form EditTenantProfile), and
 * deleting a tenant after confirmation.
 */
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPath, tenantsApi, type Tenant } from '@console/contracts';
import {
  AddButton,
  DeleteRowDialog,
  ListScreen,
  QueryTable,
  type DataTableHandle,
  type RowDialogs,
  useRowDialogs,
} from '@/components/data-table';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import {
  deleteTenantErrorText,
  tenantsQueryKeys,
  useDeleteTenantMutation,
  useTenantsQuery,
} from './api';
import { lazyDialog } from '@/components/lazy-dialog';
import { TenantProfileDialog } from '@/features/form-usage';
import { tenantsColumns } from './tenants-columns';
import { addNamespaces } from '@/lib/i18n';
import { tenants } from '@/locales/en.json?tenants&lang.json';

addNamespaces({ tenants });

// The add/edit dialog (the form layer, selects, checkboxes) loads when it first opens.
const TenantDialog = lazyDialog(async () => (await import('./tenant-dialog')).TenantDialog);

type Dialogs = RowDialogs<'add' | 'edit' | 'delete' | 'profile', Tenant>;

export default function TenantsPage() {
  const { t } = useTranslation();
  const dialogs: Dialogs = useRowDialogs();

  return (
    <ListScreen
      title={t('pages.tenants')}
      exportList={{ path: apiPath(tenantsApi.export), name: 'tenants' }}
      actions={<AddButton label={t('tenants.add')} onClick={() => dialogs.show('add')} />}
      dialogs={
        <>
          <TenantDialog
            open={dialogs.open === 'add' || dialogs.open === 'edit'}
            onOpenChange={dialogs.onOpenChange}
            tenant={dialogs.open === 'add' ? null : dialogs.row}
          />
          <TenantProfileDialog
            open={dialogs.open === 'profile'}
            onOpenChange={dialogs.onOpenChange}
            tenant={dialogs.row}
          />
        </>
      }
    >
      <TenantsTable dialogs={dialogs} />
    </ListScreen>
  );
}

function TenantsTable({ dialogs }: { dialogs: Dialogs }) {
  const { t } = useTranslation();
  const tenants = useTenantsQuery();
  const deleteTenant = useDeleteTenantMutation();
  const tableRef = useRef<DataTableHandle>(null);
  const { show } = dialogs;
  const columns = useMemo(
    () =>
      tenantsColumns(t, {
        onEdit: (row) => show('edit', row),
        onDelete: (row) => show('delete', row),
        onProfile: (row) => show('profile', row),
      }),
    [t, show],
  );
  return (
    <>
      <QueryTable<Tenant>
        ref={tableRef}
        query={tenants}
        columns={columns}
        label={t('pages.tenants')}
        emptyText={t('tenants.empty')}
        pageSizeKey={PAGE_SIZE_KEYS.tenants}
        getRowId={(row) => String(row.id)}
      />
      <DeleteRowDialog<Tenant>
        dialogs={dialogs}
        mutation={deleteTenant}
        queryKey={tenantsQueryKeys.all}
        tableRef={tableRef}
        title={t('tenants.deleteTitle')}
        description={(row) => t('tenants.deleteDescription', { name: row.companyName })}
        confirmLabel={t('tenants.deleteConfirm')}
        successText={(row) => t('tenants.deleted', { name: row.companyName })}
        errorText={(error) => deleteTenantErrorText(error, t)}
      />
    </>
  );
}
