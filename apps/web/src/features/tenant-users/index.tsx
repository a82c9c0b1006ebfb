/**
 * The tenant users screen (spec part 1, section 2, "Tenant users screen"): the sortable, paged
 * table of the people registered for a tenant's portal, the add dialog, and removing one after
 * confirmation (which ends that person's portal access).
 */
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPath, tenantUsersApi, type TenantUser } from '@console/contracts';
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
  deleteTenantUserErrorText,
  tenantUsersQueryKeys,
  useDeleteTenantUserMutation,
  useTenantUsersQuery,
} from './api';
import { TenantUserDialog } from './tenant-user-dialog';
import { tenantUsersColumns } from './tenant-users-columns';
import { addNamespaces } from '@/lib/i18n';
import { tenantUsers } from '@/locales/en.json?tenantUsers&lang.json';

addNamespaces({ tenantUsers });

type Dialogs = RowDialogs<'add' | 'delete', TenantUser>;

export default function TenantUsersPage() {
  const { t } = useTranslation();
  const dialogs: Dialogs = useRowDialogs();

  return (
    <ListScreen
      title={t('pages.tenantUsers')}
      exportList={{ path: apiPath(tenantUsersApi.export), name: 'tenant-users' }}
      actions={<AddButton label={t('tenantUsers.add')} onClick={() => dialogs.show('add')} />}
      dialogs={
        <TenantUserDialog open={dialogs.open === 'add'} onOpenChange={dialogs.onOpenChange} />
      }
    >
      <TenantUsersTable dialogs={dialogs} />
    </ListScreen>
  );
}

function TenantUsersTable({ dialogs }: { dialogs: Dialogs }) {
  const { t } = useTranslation();
  const tenantUsers = useTenantUsersQuery();
  const deleteTenantUser = useDeleteTenantUserMutation();
  const tableRef = useRef<DataTableHandle>(null);
  const { show } = dialogs;
  const columns = useMemo(
    () => tenantUsersColumns(t, { onDelete: (row) => show('delete', row) }),
    [t, show],
  );
  return (
    <>
      <QueryTable<TenantUser>
        ref={tableRef}
        query={tenantUsers}
        columns={columns}
        label={t('pages.tenantUsers')}
        emptyText={t('tenantUsers.empty')}
        pageSizeKey={PAGE_SIZE_KEYS.tenantUsers}
        getRowId={(row) => String(row.id)}
      />
      <DeleteRowDialog<TenantUser>
        dialogs={dialogs}
        mutation={deleteTenantUser}
        queryKey={tenantUsersQueryKeys.all}
        tableRef={tableRef}
        title={t('tenantUsers.deleteTitle')}
        description={(row) => t('tenantUsers.deleteDescription', { email: row.email })}
        confirmLabel={t('tenantUsers.deleteConfirm')}
        successText={(row) => t('tenantUsers.deleted', { email: row.email })}
        errorText={(error) => deleteTenantUserErrorText(error, t)}
      />
    </>
  );
}
