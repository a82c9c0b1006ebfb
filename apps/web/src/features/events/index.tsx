/**
 * The events screen (spec part 1, section 2, "Events screen"): the event log paged on the
 * server, filtered by name, unprocessed or errored, newest or oldest first; staff reset a failed
 * worker's record and record test events (section 8: 'HTTP error! status: {status}').
 */
import { useMemo, useState } from 'react';
import { FlaskConicalIcon, RefreshCwIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { SortingState } from '@tanstack/react-table';
import { apiPath, eventsApi, type EventItem, type EventSortOrder } from '@console/contracts';
import { ListScreen, QueryTable, usePageNumberPagerTexts } from '@/components/data-table';
import { ExportButton } from '@/components/export-button';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useAuthSession } from '@/lib/auth-session';
import { usePageCursor, useServerPaging } from '@/lib/paging';
import { hasRole } from '@/lib/signed-in-user';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import {
  eventCallErrorText,
  useCreateTestEventMutation,
  useEventsQuery,
  useResetEventMutation,
} from './api';
import { EventPanel } from './event-panel';
import { eventRowClassName, eventsColumns } from './events-columns';
import { addNamespaces } from '@/lib/i18n';
import { events } from '@/locales/en.json?events&lang.json';

addNamespaces({ events });

/** How long the event-name filter waits for typing to pause. */
export const EVENT_NAME_DEBOUNCE_MS = 300;

/** The status filters of the log: at most one is on, the other is disabled meanwhile. */
type StatusFilter = 'unprocessed' | 'errored';
const STATUS_FILTERS = [
  { filter: 'unprocessed', id: 'events-unprocessed-only', label: 'events.filters.unprocessedOnly' },
  { filter: 'errored', id: 'events-errored-only', label: 'events.filters.erroredOnly' },
] as const satisfies readonly { filter: StatusFilter; id: string; label: string }[];

/** The log's order at first: newest first, by the Created At column. */
const NEWEST_FIRST: SortingState = [{ id: 'createdAt', desc: true }];

export default function EventsPage() {
  const { t } = useTranslation();
  return (
    <ListScreen title={t('pages.events')}>
      <EventsView />
    </ListScreen>
  );
}

/** Reset and test events are the staff's (the server refuses them to tenant users). */
function useIsStaff(): boolean {
  const { accessToken } = useAuthSession();
  return useMemo(
    () => hasRole(accessToken, 'staff') || hasRole(accessToken, 'admin'),
    [accessToken],
  );
}

function EventsView() {
  const { t } = useTranslation();
  const isStaff = useIsStaff();
  const numbered = useServerPaging(PAGE_SIZE_KEYS.events, NEWEST_FIRST);
  const { cursor, steppingFrom } = usePageCursor(numbered);
  const { page, pageSize, setPage } = numbered;
  const sortOrder: EventSortOrder = numbered.sorting[0]?.desc === false ? 'asc' : 'desc';
  // The two filters exclude each other: one piece of state, not a boolean each.
  const [only, setOnly] = useState<StatusFilter | null>(null);
  const [nameInput, setNameInput] = useState('');
  const typedName = useDebouncedValue(nameInput.trim(), EVENT_NAME_DEBOUNCE_MS);

  // A new name filter starts again at page 1 (adjusted while rendering, not in an effect).
  const [eventName, setEventName] = useState(typedName);
  if (eventName !== typedName) {
    setEventName(typedName);
    setPage(1);
  }

  const filters = {
    sortOrder,
    unprocessedOnly: only === 'unprocessed',
    erroredOnly: only === 'errored',
    eventName,
  };
  const events = useEventsQuery({ page, pageSize, ...filters, cursor });
  // Previous / Next step from the rows on screen, not from the page before's still shown.
  const paging = steppingFrom(events.isPlaceholderData ? undefined : events.data?.data);
  const resetEvent = useResetEventMutation();
  const createTestEvent = useCreateTestEventMutation();
  // Beyond the exact threshold the server counts by estimate (docs/events.md, "API").
  const pagerTexts = usePageNumberPagerTexts(events.data?.totalIsEstimate === true);

  const resetting = resetEvent.isPending ? resetEvent.variables : undefined;
  // The panel shows the event as on the current page, so a refresh updates it too.
  const [shownId, setShownId] = useState<number | null>(null);
  const shown = events.data?.data.find((event) => event.id === shownId) ?? null;
  const columns = useMemo(
    () =>
      eventsColumns(t, {
        onShow: (event: EventItem) => setShownId(event.id),
        onReset: isStaff
          ? (event: EventItem, workerName: string) =>
              resetEvent.mutate(
                { id: event.id, workerName },
                {
                  onSuccess: () =>
                    toast.success(t('events.resetDone', { id: event.id, worker: workerName })),
                  onError: (error) => toast.error(eventCallErrorText(error, t)),
                },
              )
          : undefined,
        isResetting: (event, workerName) =>
          resetting?.id === event.id && resetting.workerName === workerName,
      }),
    // resetEvent.mutate is stable; `resetting` changes what the buttons show.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, isStaff, resetting],
  );

  function createTest() {
    createTestEvent.mutate(undefined, {
      onSuccess: ({ id }) => toast.success(t('events.testCreated', { id })),
      onError: (error) => toast.error(eventCallErrorText(error, t)),
    });
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-wrap items-center gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor="events-event-name">{t('events.filters.eventName')}</Label>
            <Input
              id="events-event-name"
              type="search"
              className="w-64"
              placeholder={t('events.filters.eventNamePlaceholder')}
              value={nameInput}
              maxLength={100}
              onChange={(event) => setNameInput(event.target.value)}
            />
          </div>
          {STATUS_FILTERS.map(({ filter, id, label }) => (
            <div key={filter} className="flex items-center gap-2 self-end pb-2">
              <Checkbox
                id={id}
                checked={only === filter}
                disabled={only !== null && only !== filter}
                onCheckedChange={(checked) => {
                  setOnly(checked === true ? filter : null);
                  setPage(1);
                }}
              />
              <Label htmlFor={id}>{t(label)}</Label>
            </div>
          ))}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {/* Beside the filters it applies (they are this view's state, not the header's). */}
          <ExportButton path={apiPath(eventsApi.export)} name="events" filters={filters} />
          <Button
            variant="outline"
            onClick={() => void events.refetch()}
            disabled={events.isFetching}
          >
            <RefreshCwIcon aria-hidden="true" className={events.isFetching ? 'animate-spin' : ''} />
            {t('events.refresh')}
          </Button>
          {isStaff && (
            <Button onClick={createTest} disabled={createTestEvent.isPending}>
              <FlaskConicalIcon aria-hidden="true" />
              {t('events.createTest')}
            </Button>
          )}
        </div>
      </div>
      <QueryTable<EventItem>
        query={events}
        paging={paging}
        sortable
        pagerTexts={pagerTexts}
        columns={columns}
        label={t('pages.events')}
        emptyText={t('events.empty')}
        getRowId={(row) => String(row.id)}
        rowClassName={eventRowClassName}
      />
      <EventPanel event={shown} onClose={() => setShownId(null)} />
    </div>
  );
}
