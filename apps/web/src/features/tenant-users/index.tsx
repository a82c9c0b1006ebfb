/**
 * The tenant users screen (spec part 1, section 2, "Tenant users screen"): the sortable, paged
 * table of the people registered for a tenant's portal, the add dialog, and removing one after
 * confirmation (which ends that person's portal access).
 */
import { useCallback, useMemo, useRef, useState, type RefObject } from 'react';
import { PlusIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TenantUser } from '@console/contracts';
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
  deleteTenantUserErrorText,
  tenantUsersQueryKeys,
  useDeleteTenantUserMutation,
  useTenantUsersQuery,
} from './api';
import { TenantUserDialog } from './tenant-user-dialog';
import { tenantUsersColumns } from './tenant-users-columns';

/** Which dialog is open, and for which tenant user (kept while the dialog closes). */
interface DialogState {
  open: 'add' | 'delete' | null;
  currentRow: TenantUser | null;
}

export default function TenantUsersPage() {
  const { t } = useTranslation();
  const tableRef = useRef<DataTableHandle>(null);
  const [dialog, setDialog] = useState<DialogState>({ open: null, currentRow: null });
  const onDelete = useCallback(
    (row: TenantUser) => setDialog({ open: 'delete', currentRow: row }),
    [],
  );

  return (
    <>
      <PageHeader
        title={t('pages.tenantUsers')}
        actions={
          <Button onClick={() => setDialog({ open: 'add', currentRow: null })}>
            <PlusIcon aria-hidden="true" />
            {t('tenantUsers.add')}
          </Button>
        }
      />
      <WaitingForConfiguration>
        <TenantUsersTable tableRef={tableRef} onDelete={onDelete} />
      </WaitingForConfiguration>
      <TenantUsersDialogs dialog={dialog} setDialog={setDialog} tableRef={tableRef} />
    </>
  );
}

function TenantUsersTable({
  tableRef,
  onDelete,
}: {
  tableRef: RefObject<DataTableHandle | null>;
  onDelete: (tenantUser: TenantUser) => void;
}) {
  const { t } = useTranslation();
  const tenantUsers = useTenantUsersQuery();
  const columns = useMemo(() => tenantUsersColumns(t, { onDelete }), [t, onDelete]);
  return (
    <DataTable<TenantUser>
      ref={tableRef}
      columns={columns}
      data={tenantUsers.data}
      label={t('pages.tenantUsers')}
      emptyText={t('tenantUsers.empty')}
      pageSizeKey={PAGE_SIZE_KEYS.tenantUsers}
      getRowId={(row) => String(row.id)}
      isLoading={tenantUsers.isPending}
      error={tenantUsers.isError ? tenantUsers.error : undefined}
      onRetry={() => void tenantUsers.refetch()}
    />
  );
}

function TenantUsersDialogs({
  dialog,
  setDialog,
  tableRef,
}: {
  dialog: DialogState;
  setDialog: (update: (current: DialogState) => DialogState) => void;
  tableRef: RefObject<DataTableHandle | null>;
}) {
  const { t } = useTranslation();
  const deleteTenantUser = useDeleteTenantUserMutation();
  const closeDialog = () => setDialog((current) => ({ ...current, open: null }));
  const tenantUser = dialog.currentRow;

  const deleteRow = useDeleteRow<TenantUser>({
    mutate: deleteTenantUser.mutate,
    queryKey: tenantUsersQueryKeys.all,
    tableRef,
    successText: (row) => t('tenantUsers.deleted', { email: row.email }),
    errorText: (error) => deleteTenantUserErrorText(error, t),
    onSettled: closeDialog,
  });

  return (
    <>
      <TenantUserDialog
        open={dialog.open === 'add'}
        onOpenChange={(open) => {
          if (!open) closeDialog();
        }}
      />
      <ConfirmDialog
        open={dialog.open === 'delete'}
        onOpenChange={(open) => {
          if (!open) closeDialog();
        }}
        title={t('tenantUsers.deleteTitle')}
        description={
          tenantUser ? t('tenantUsers.deleteDescription', { email: tenantUser.email }) : ''
        }
        confirmLabel={t('tenantUsers.deleteConfirm')}
        destructive
        isPending={deleteTenantUser.isPending}
        onConfirm={() => tenantUser && deleteRow(tenantUser)}
      />
    </>
  );
}
