/**
 * The entity users screen of the tenant portal (spec part 1, section 2, "Entity users screen"):
 * the users of the entities a person may see (the server decides: staff every tenant's, a tenant
 * user its own), one page at a time, each with an expandable key list. Admins may delete a key
 * after confirmation: it disappears at once, and the list reloads if the deletion fails (spec 4);
 * section 8 gives every message.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { apiPath, entityUsersApi, validateKeyDeletion, type EntityUser } from '@console/contracts';
import {
  LazyConfirmDialog,
  ListScreen,
  QueryTable,
  type RowDialogs,
  useRowDialogs,
} from '@/components/data-table';
import { useIsAdmin } from '@/lib/signed-in-user';
import { useServerPaging, type ServerPagingState } from '@/lib/paging';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import {
  deleteKeyErrorText,
  useDeleteEntityUserKeyMutation,
  useEntityUsersQuery,
  type KeyDeletion,
} from './api';
import { entityUserName } from './entity-user-name';
import { entityUsersColumns } from './entity-users-columns';
import { addNamespaces } from '@/lib/i18n';
import { entityUsers } from '@/locales/en.json?entityUsers&lang.json';

addNamespaces({ entityUsers });

/** The key deletion to confirm: a user's key. */
interface KeyTarget {
  user: EntityUser;
  keyName: string;
}

type Dialogs = RowDialogs<'deleteKey', KeyTarget>;

export default function EntityUsersPage() {
  const { t } = useTranslation();
  const dialogs: Dialogs = useRowDialogs();
  // Here, not in the table: the export follows the table's order.
  const paging = useServerPaging(PAGE_SIZE_KEYS.entityUsers);
  return (
    <ListScreen
      title={t('pages.entityUsers')}
      exportList={{
        path: apiPath(entityUsersApi.export),
        name: 'entity-users',
        filters: { sort: paging.offsetRequest.sort },
      }}
      dialogs={<DeleteKeyDialog dialogs={dialogs} />}
    >
      <EntityUsersTable show={dialogs.show} paging={paging} />
    </ListScreen>
  );
}

function EntityUsersTable({ show, paging }: { show: Dialogs['show']; paging: ServerPagingState }) {
  const { t } = useTranslation();
  const isAdmin = useIsAdmin();
  const entityUsers = useEntityUsersQuery(paging.offsetRequest);
  const columns = useMemo(
    () =>
      entityUsersColumns(t, {
        canDeleteKeys: isAdmin,
        onDeleteKey: (user, keyName) => show('deleteKey', { user, keyName }),
      }),
    [t, isAdmin, show],
  );
  return (
    <QueryTable<EntityUser>
      query={entityUsers}
      paging={paging}
      columns={columns}
      label={t('pages.entityUsers')}
      emptyText={t('entityUsers.empty')}
      getRowId={(row) => row.partyUserId}
    />
  );
}

/**
 * The key deletion is not a row deletion (the row stays, the key leaves it at once): the
 * optimistic mutation, not the list's delete flow.
 */
function DeleteKeyDialog({ dialogs }: { dialogs: Dialogs }) {
  const { t } = useTranslation();
  const deleteKey = useDeleteEntityUserKeyMutation();
  const target = dialogs.row;

  function confirmDeleteKey() {
    if (!target) return;
    dialogs.close();
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
    <LazyConfirmDialog
      open={dialogs.open === 'deleteKey'}
      onOpenChange={dialogs.onOpenChange}
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
