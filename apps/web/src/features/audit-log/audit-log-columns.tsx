import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { PanelRightOpenIcon } from 'lucide-react';
import type { AuditEntry } from '@console/contracts';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';

/** The target of a row as one line: type, id and name, each when known. */
export function targetText(entry: AuditEntry, notSet: string): string {
  const parts = [entry.targetType, entry.targetId, entry.targetName].filter(
    (part): part is string => part !== null && part !== '',
  );
  return parts.length === 0 ? notSet : parts.join(' · ');
}

/** The columns of the audit log: newest first, not sortable (the server's one order). */
export function auditLogColumns(
  t: TFunction,
  onShow: (entry: AuditEntry) => void,
): ColumnDef<AuditEntry>[] {
  const notSet = t('auditLog.notSet');
  return [
    {
      accessorKey: 'occurredAt',
      header: t('auditLog.columns.time'),
      enableSorting: false,
      meta: { className: 'whitespace-nowrap' },
      cell: ({ row }) => formatDateTime(row.original.occurredAt),
    },
    {
      accessorKey: 'actor',
      header: t('auditLog.columns.actor'),
      enableSorting: false,
      meta: { className: 'max-w-48 break-words' },
      cell: ({ row }) => row.original.actor ?? notSet,
    },
    {
      accessorKey: 'action',
      header: t('auditLog.columns.action'),
      enableSorting: false,
      cell: ({ row }) => row.original.action ?? row.original.eventName,
    },
    {
      id: 'what',
      header: t('auditLog.columns.what'),
      enableSorting: false,
      meta: { className: 'max-w-80 break-words' },
      cell: ({ row }) => targetText(row.original, notSet),
    },
    {
      id: 'tenant',
      header: t('auditLog.columns.tenant'),
      enableSorting: false,
      meta: { className: 'max-w-40 break-words' },
      cell: ({ row }) => row.original.tenantName ?? row.original.tenantId ?? notSet,
    },
    {
      id: 'changes',
      header: t('auditLog.columns.changes'),
      enableSorting: false,
      cell: ({ row }) => (
        <Button
          variant="outline"
          size="sm"
          aria-label={t('auditLog.showChanges', { id: row.original.id })}
          onClick={() => onShow(row.original)}
        >
          <PanelRightOpenIcon aria-hidden="true" />
          {t('auditLog.show')}
        </Button>
      ),
    },
  ];
}
