import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '@console/contracts';
import { ChangePanel, ChangeTable, JsonBlock, PanelSection } from '@/components/change-panel';
import { formatDateTime } from '@/lib/format';

/** What an audit row changed, side by side, and the whole of what its event recorded. */
export function AuditEntryPanel({
  entry,
  onClose,
}: {
  entry: AuditEntry | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notSet = t('auditLog.notSet');
  return (
    <ChangePanel
      open={entry !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={
        entry
          ? t('auditLog.panel.title', {
              action: entry.action ?? entry.eventName,
              type: entry.targetType ?? '',
              name: entry.targetName ?? entry.targetId ?? '',
            })
          : ''
      }
      description={
        entry
          ? t('auditLog.panel.description', {
              actor: entry.actor ?? notSet,
              time: formatDateTime(entry.occurredAt),
            })
          : ''
      }
    >
      {entry && (
        <>
          <ChangeTable before={entry.before} after={entry.after} />
          <PanelSection title={t('auditLog.panel.context')}>
            <p className="text-sm">
              {t('auditLog.panel.event', { id: entry.eventId, name: entry.eventName })}
            </p>
            <JsonBlock value={entry.metadata} label={t('auditLog.panel.context')} />
          </PanelSection>
        </>
      )}
    </ChangePanel>
  );
}
