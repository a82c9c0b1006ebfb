import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { RotateCcwIcon } from 'lucide-react';
import { eventStatus, type EventItem, type EventStatus } from '@console/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/utils';
import { formatDateTime } from '@/lib/format';

export interface EventRowActions {
  /** Open the event's panel (its payload and processing). */
  onShow?: (event: EventItem) => void;
  /** Reset one failed worker's record; absent when the user may not reset (tenant users). */
  onReset?: (event: EventItem, workerName: string) => void;
  /** Whether a reset of this event's worker is under way. */
  isResetting?: (event: EventItem, workerName: string) => boolean;
}

/** The workers that failed the event, by name. */
export function failedWorkers(event: EventItem) {
  return event.processedEvents.filter((record) => record.hasError);
}

/** A row is red when a worker failed the event (spec part 1, "Events screen"). */
export function eventRowClassName(event: EventItem): string | undefined {
  return event.hasError || failedWorkers(event).length > 0
    ? 'bg-red-50 hover:bg-red-100 dark:bg-red-950/40 dark:hover:bg-red-950/60'
    : undefined;
}

const STATUS_CLASSES: Record<EventStatus, string> = {
  Error: '',
  // The badge has no success variant: green on light green reads at more than 4.5:1.
  Processed: 'border-transparent bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-100',
  Unprocessed: '',
};
const STATUS_VARIANTS = {
  Error: 'destructive',
  Processed: 'outline',
  Unprocessed: 'secondary',
} as const satisfies Record<EventStatus, 'destructive' | 'outline' | 'secondary'>;

export function EventStatusBadge({ event, t }: { event: EventItem; t: TFunction }) {
  const status = eventStatus(event);
  return (
    <Badge variant={STATUS_VARIANTS[status]} className={cn(STATUS_CLASSES[status])}>
      {t(`events.status.${status}`)}
    </Badge>
  );
}

/**
 * The columns of the events table (spec part 1, "Events screen"). Only Created At sorts: the
 * server orders the log by creation time, newest or oldest first.
 */
export function eventsColumns(
  t: TFunction,
  { onShow, onReset, isResetting }: EventRowActions,
): ColumnDef<EventItem>[] {
  const notSet = t('events.notSet');
  return [
    {
      accessorKey: 'id',
      header: t('events.columns.id'),
      enableSorting: false,
      // The id opens the event's panel: a button, so that the keyboard reaches it.
      cell: ({ row }) =>
        onShow ? (
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0"
            aria-label={t('events.showDetails', { id: row.original.id })}
            onClick={() => onShow(row.original)}
          >
            {row.original.id}
          </Button>
        ) : (
          row.original.id
        ),
    },
    {
      accessorKey: 'eventName',
      header: t('events.columns.eventName'),
      enableSorting: false,
      meta: { className: 'font-medium' },
    },
    {
      id: 'status',
      header: t('events.columns.status'),
      enableSorting: false,
      cell: ({ row }) => <EventStatusBadge event={row.original} t={t} />,
    },
    {
      accessorKey: 'tenantId',
      header: t('events.columns.tenantId'),
      enableSorting: false,
      cell: ({ row }) => row.original.tenantId ?? notSet,
    },
    {
      accessorKey: 'entityId',
      header: t('events.columns.entityId'),
      enableSorting: false,
      cell: ({ row }) => row.original.entityId?.trim() || notSet,
    },
    {
      accessorKey: 'createdAt',
      header: t('events.columns.createdAt'),
      enableSorting: true,
      meta: { className: 'whitespace-nowrap' },
      cell: ({ row }) => formatDateTime(row.original.createdAt),
    },
    {
      accessorKey: 'metadata',
      header: t('events.columns.metadata'),
      enableSorting: false,
      cell: ({ row }) => {
        const json = JSON.stringify(row.original.metadata);
        return (
          <span className="block max-w-xs truncate font-mono text-xs" title={json}>
            {json}
          </span>
        );
      },
    },
    {
      id: 'actions',
      header: t('events.columns.actions'),
      enableSorting: false,
      cell: ({ row }) => {
        const event = row.original;
        const failed = failedWorkers(event);
        if (failed.length === 0) {
          return <span className="text-muted-foreground">{t('events.noActions')}</span>;
        }
        return (
          <ul
            className="flex flex-col gap-2"
            aria-label={t('events.failedWorkers', { id: event.id })}
          >
            {failed.map((record) => (
              <li key={record.workerName} className="flex items-center gap-2">
                <span className="text-sm text-red-800 dark:text-red-200">
                  {t('events.workerError', {
                    worker: record.workerName,
                    message: record.errorMessage || t('events.noErrorMessage'),
                  })}
                </span>
                {onReset && (
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={t('events.resetWorker', {
                      worker: record.workerName,
                      id: event.id,
                    })}
                    disabled={isResetting?.(event, record.workerName)}
                    onClick={() => onReset(event, record.workerName)}
                  >
                    <RotateCcwIcon aria-hidden="true" />
                    {t('events.reset')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        );
      },
    },
  ];
}
