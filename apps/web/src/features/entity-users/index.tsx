/**
 * The entity users screen of the tenant portal (spec part 1, section 2, "Entity users screen"):
 * the users of the entities a person may see (the server decides: staff every tenant's, a tenant
 * user its own), one page at a time, each with an expandable key list. Admins may delete a key
 * after confirmation: it disappears at once, and the list reloads if the deletion fails (spec 4);
 * section 8 gives every message.
 */
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { validateKeyDeletion, type EntityUser } from '@console/contracts';
import { ConfirmDialog, DataTable, WaitingForConfiguration } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { useIsAdmin } from '@/lib/signed-in-user';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { usePortalPaging, useStayWithinPages } from '@/features/entities/portal-paging';
import {
  deleteKeyErrorText,
  useDeleteEntityUserKeyMutation,
  useEntityUsersQuery,
  type KeyDeletion,
} from './api';
import { entityUserName } from './entity-user-name';
import { entityUsersColumns } from './entity-users-columns';

/** Which dialog is open, and for which user's key (kept while the dialog closes). */
interface DialogState {
  open: 'deleteKey' | null;
  currentRow: { user: EntityUser; keyName: string } | null;
}

export default function EntityUsersPage() {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<DialogState>({ open: null, currentRow: null });
  const onDeleteKey = useCallback(
    (user: EntityUser, keyName: string) =>
      setDialog({ open: 'deleteKey', currentRow: { user, keyName } }),
    [],
  );
  return (
    <>
      <PageHeader title={t('pages.entityUsers')} />
      <WaitingForConfiguration>
        <EntityUsersTable onDeleteKey={onDeleteKey} />
      </WaitingForConfiguration>
      <EntityUsersDialogs dialog={dialog} setDialog={setDialog} />
    </>
  );
}

function EntityUsersTable({
  onDeleteKey,
}: {
  onDeleteKey: (user: EntityUser, keyName: string) => void;
}) {
  const { t } = useTranslation();
  const isAdmin = useIsAdmin();
  const paging = usePortalPaging(PAGE_SIZE_KEYS.entityUsers);
  const entityUsers = useEntityUsersQuery(paging.request);
  const columns = useMemo(
    () => entityUsersColumns(t, { canDeleteKeys: isAdmin, onDeleteKey }),
    [t, isAdmin, onDeleteKey],
  );
  useStayWithinPages(paging.page, paging.pageSize, entityUsers.data?.totalCount, paging.setPage);

  return (
    <DataTable<EntityUser>
      columns={columns}
      data={entityUsers.data?.data}
      label={t('pages.entityUsers')}
      emptyText={t('entityUsers.empty')}
      getRowId={(row) => row.partyUserId}
      isLoading={entityUsers.isPending}
      error={entityUsers.isError ? entityUsers.error : undefined}
      onRetry={() => void entityUsers.refetch()}
      server={{
        page: paging.page,
        pageSize: paging.pageSize,
        totalCount: entityUsers.data?.totalCount ?? 0,
        onPageChange: paging.setPage,
        onPageSizeChange: paging.setPageSize,
        pagerText: 'list',
      }}
    />
  );
}

function EntityUsersDialogs({
  dialog,
  setDialog,
}: {
  dialog: DialogState;
  setDialog: (update: (current: DialogState) => DialogState) => void;
}) {
  const { t } = useTranslation();
  const deleteKey = useDeleteEntityUserKeyMutation();
  const closeDialog = () => setDialog((current) => ({ ...current, open: null }));
  const target = dialog.currentRow;

  function confirmDeleteKey() {
    if (!target) return;
    closeDialog();
    const deletion: KeyDeletion = { userId: target.user.partyUserId, keyName: target.keyName };
    const problem = validateKeyDeletion(deletion.userId, deletion.keyName);
    if (problem) {
      toast.error(t('entityUsers.deleteKeyErrors.required'));
      return;
    }
    deleteKey.mutate(deletion, {
      onSuccess: () => toast.success(t('entityUsers.keyDeleted', { name: deletion.keyName })),
      onError: (error) => toast.error(deleteKeyErrorText(error, t)),
    });
  }

  return (
    <ConfirmDialog
      open={dialog.open === 'deleteKey'}
      onOpenChange={(open) => {
        if (!open) closeDialog();
      }}
      title={t('entityUsers.deleteKeyTitle')}
      description={
        target
          ? t('entityUsers.deleteKeyDescription', {
              name: target.keyName,
              user: entityUserName(target.user),
            })
          : ''
      }
      confirmLabel={t('entityUsers.deleteKeyConfirm')}
      destructive
      onConfirm={confirmDeleteKey}
    />
  );
}
