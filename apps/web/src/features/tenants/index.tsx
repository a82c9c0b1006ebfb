/**
 * The tenants screen (spec part 1, section 2, "Tenants screen"): the sortable, paged table of
 * tenants, the add and edit dialog, and deleting a tenant after confirmation.
 */
import { useMemo, useRef, type RefObject } from 'react';
import { PlusIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Tenant } from '@console/contracts';
import {
  DeleteRowDialog,
  QueryTable,
  WaitingForConfiguration,
  type DataTableHandle,
  type RowDialogs,
  useRowDialogs,
} from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import {
  deleteTenantErrorText,
  tenantsQueryKeys,
  useDeleteTenantMutation,
  useTenantsQuery,
} from './api';
import { TenantDialog } from './tenant-dialog';
import { tenantsColumns } from './tenants-columns';
import { addNamespaces } from '@/lib/i18n';
import { tenants } from '@/locales/en.json?tenants&lang.json';

addNamespaces({ tenants });

type Dialogs = RowDialogs<'add' | 'edit' | 'delete', Tenant>;

export default function TenantsPage() {
  const { t } = useTranslation();
  const deleteTenant = useDeleteTenantMutation();
  const tableRef = useRef<DataTableHandle>(null);
  const dialogs: Dialogs = useRowDialogs();

  return (
    <>
      <PageHeader
        title={t('pages.tenants')}
        actions={
          <Button onClick={() => dialogs.show('add')}>
            <PlusIcon aria-hidden="true" />
            {t('tenants.add')}
          </Button>
        }
      />
      <WaitingForConfiguration>
        <TenantsTable tableRef={tableRef} show={dialogs.show} />
      </WaitingForConfiguration>
      <TenantDialog
        open={dialogs.open === 'add' || dialogs.open === 'edit'}
        onOpenChange={dialogs.onOpenChange}
        tenant={dialogs.open === 'add' ? null : dialogs.row}
      />
      <DeleteRowDialog<Tenant>
        row={dialogs.row}
        open={dialogs.open === 'delete'}
        onClose={dialogs.close}
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

function TenantsTable({
  tableRef,
  show,
}: {
  tableRef: RefObject<DataTableHandle | null>;
  show: Dialogs['show'];
}) {
  const { t } = useTranslation();
  const tenants = useTenantsQuery();
  const columns = useMemo(
    () =>
      tenantsColumns(t, {
        onEdit: (row) => show('edit', row),
        onDelete: (row) => show('delete', row),
      }),
    [t, show],
  );
  return (
    <QueryTable<Tenant>
      ref={tableRef}
      query={tenants}
      columns={columns}
      label={t('pages.tenants')}
      emptyText={t('tenants.empty')}
      pageSizeKey={PAGE_SIZE_KEYS.tenants}
      getRowId={(row) => String(row.id)}
    />
  );
}
