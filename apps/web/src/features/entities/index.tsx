/**
 * The entities screen of the tenant portal (spec part 1, section 2, "Entities screen"): the
 * entities of every tenant for staff, of their own tenant for a tenant user (the server decides),
 * one page at a time with the list screens' paging controls; each entity's Profile button opens
 * its profile dialog (dynamic form EditEntityProfile).
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPath, entitiesApi, type Entity } from '@console/contracts';
import { ListScreen, QueryTable, type RowDialogs, useRowDialogs } from '@/components/data-table';
import { EntityProfileDialog } from '@/features/form-usage';
import { useServerPaging, type ServerPagingState } from '@/lib/paging';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { useEntitiesQuery } from './api';
import { entitiesColumns } from './entities-columns';
import { addNamespaces } from '@/lib/i18n';
import { entities } from '@/locales/en.json?entities&lang.json';

addNamespaces({ entities });

type Dialogs = RowDialogs<'profile', Entity>;

export default function EntitiesPage() {
  const { t } = useTranslation();
  const dialogs: Dialogs = useRowDialogs();
  // Here, not in the table: the export follows the table's order.
  const paging = useServerPaging(PAGE_SIZE_KEYS.entities);
  return (
    <ListScreen
      title={t('pages.entities')}
      exportList={{
        path: apiPath(entitiesApi.export),
        name: 'entities',
        filters: { sort: paging.offsetRequest.sort },
      }}
      dialogs={
        <EntityProfileDialog
          open={dialogs.open === 'profile'}
          onOpenChange={dialogs.onOpenChange}
          entity={dialogs.row}
        />
      }
    >
      <EntitiesTable dialogs={dialogs} paging={paging} />
    </ListScreen>
  );
}

function EntitiesTable({ dialogs, paging }: { dialogs: Dialogs; paging: ServerPagingState }) {
  const { t } = useTranslation();
  const entities = useEntitiesQuery(paging.offsetRequest);
  const { show } = dialogs;
  const columns = useMemo(
    () => entitiesColumns(t, { onProfile: (row) => show('profile', row) }),
    [t, show],
  );
  return (
    <QueryTable<Entity>
      query={entities}
      paging={paging}
      sortable
      columns={columns}
      label={t('pages.entities')}
      emptyText={t('entities.empty')}
      getRowId={(row) => row.partyEntityId}
    />
  );
}
