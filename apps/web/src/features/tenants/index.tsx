/**
 * The tenants screen (spec part 1, section 2, "Tenants screen"): the sortable, paged table of
 * tenants, the add and edit dialog, and deleting a tenant after confirmation.
 */
import { useCallback, useMemo, useRef, useState, type RefObject } from 'react';
import { PlusIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Tenant } from '@console/contracts';
import {
  ConfirmDialog,
  DataTable,
  WaitingForConfiguration,
  type DataTableHandle,
  useDeleteRow,
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

/** Which dialog is open, and for which tenant (kept while the dialog closes). */
interface DialogState {
  open: 'add' | 'edit' | 'delete' | null;
  currentRow: Tenant | null;
}

export default function TenantsPage() {
  const { t } = useTranslation();
  const tableRef = useRef<DataTableHandle>(null);
  const [dialog, setDialog] = useState<DialogState>({ open: null, currentRow: null });
  const onEdit = useCallback((row: Tenant) => setDialog({ open: 'edit', currentRow: row }), []);
  const onDelete = useCallback((row: Tenant) => setDialog({ open: 'delete', currentRow: row }), []);

  return (
    <>
      <PageHeader
        title={t('pages.tenants')}
        actions={
          <Button onClick={() => setDialog({ open: 'add', currentRow: null })}>
            <PlusIcon aria-hidden="true" />
            {t('tenants.add')}
          </Button>
        }
      />
      <WaitingForConfiguration>
        <TenantsTable tableRef={tableRef} onEdit={onEdit} onDelete={onDelete} />
      </WaitingForConfiguration>
      <TenantsDialogs dialog={dialog} setDialog={setDialog} tableRef={tableRef} />
    </>
  );
}

function TenantsTable({
  tableRef,
  onEdit,
  onDelete,
}: {
  tableRef: RefObject<DataTableHandle | null>;
  onEdit: (tenant: Tenant) => void;
  onDelete: (tenant: Tenant) => void;
}) {
  const { t } = useTranslation();
  const tenants = useTenantsQuery();
  const columns = useMemo(() => tenantsColumns(t, { onEdit, onDelete }), [t, onEdit, onDelete]);
  return (
    <DataTable<Tenant>
      ref={tableRef}
      columns={columns}
      data={tenants.data}
      label={t('pages.tenants')}
      emptyText={t('tenants.empty')}
      pageSizeKey={PAGE_SIZE_KEYS.tenants}
      getRowId={(row) => String(row.id)}
      isLoading={tenants.isPending}
      error={tenants.isError ? tenants.error : undefined}
      onRetry={() => void tenants.refetch()}
    />
  );
}

function TenantsDialogs({
  dialog,
  setDialog,
  tableRef,
}: {
  dialog: DialogState;
  setDialog: (update: (current: DialogState) => DialogState) => void;
  tableRef: RefObject<DataTableHandle | null>;
}) {
  const { t } = useTranslation();
  const deleteTenant = useDeleteTenantMutation();
  const closeDialog = () => setDialog((current) => ({ ...current, open: null }));
  const tenant = dialog.currentRow;

  const deleteRow = useDeleteRow<Tenant>({
    mutate: deleteTenant.mutate,
    queryKey: tenantsQueryKeys.all,
    tableRef,
    successText: (row) => t('tenants.deleted', { name: row.companyName }),
    errorText: (error) => deleteTenantErrorText(error, t),
    onSettled: closeDialog,
  });

  return (
    <>
      <TenantDialog
        open={dialog.open === 'add' || dialog.open === 'edit'}
        onOpenChange={(open) => {
          if (!open) closeDialog();
        }}
        tenant={dialog.open === 'add' ? null : tenant}
      />
      <ConfirmDialog
        open={dialog.open === 'delete'}
        onOpenChange={(open) => {
          if (!open) closeDialog();
        }}
        title={t('tenants.deleteTitle')}
        description={tenant ? t('tenants.deleteDescription', { name: tenant.companyName }) : ''}
        confirmLabel={t('tenants.deleteConfirm')}
        destructive
        isPending={deleteTenant.isPending}
        onConfirm={() => tenant && deleteRow(tenant)}
      />
    </>
  );
}
