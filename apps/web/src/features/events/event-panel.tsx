import { useTranslation } from 'react-i18next';
import type { EventItem } from '@console/contracts';
import { ChangePanel, JsonBlock, PanelSection } from '@/components/change-panel';
import { formatDateTime } from '@/lib/format';

/** One event in the side panel: its payload pretty-printed, and how each worker processed it. */
export function EventPanel({ event, onClose }: { event: EventItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ChangePanel
      open={event !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={event ? t('events.panel.title', { id: event.id, name: event.eventName }) : ''}
      description={
        event ? t('events.panel.description', { createdAt: formatDateTime(event.createdAt) }) : ''
      }
    >
      {event && (
        <>
          <PanelSection title={t('events.panel.payload')}>
            <JsonBlock value={event.metadata} label={t('events.panel.payload')} />
          </PanelSection>
          <PanelSection title={t('events.panel.processing')}>
            {event.processedEvents.length === 0 ? (
              <p className="text-muted-foreground text-sm">{t('events.panel.noWorkers')}</p>
            ) : (
              <table className="w-full table-fixed border-collapse text-sm">
                <thead>
                  <tr className="border-b text-left">
                    <th scope="col" className="py-2 pr-2 font-medium">
                      {t('events.panel.worker')}
                    </th>
                    <th scope="col" className="py-2 pr-2 font-medium">
                      {t('events.panel.status')}
                    </th>
                    <th scope="col" className="py-2 pr-2 font-medium">
                      {t('events.panel.attempts')}
                    </th>
                    <th scope="col" className="py-2 font-medium">
                      {t('events.panel.processedAt')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {event.processedEvents.map((record) => (
                    <tr key={record.workerName} className="border-b align-top">
                      <th scope="row" className="py-2 pr-2 text-left font-normal break-words">
                        {record.workerName}
                      </th>
                      <td className="py-2 pr-2 break-words">
                        {record.hasError
                          ? t('events.panel.failed')
                          : record.processedAt
                            ? t('events.panel.done')
                            : t('events.panel.waiting')}
                        {record.hasError && (
                          <span className="mt-1 block font-mono text-xs whitespace-pre-wrap text-red-800 dark:text-red-200">
                            {t('events.panel.error')}:{' '}
                            {record.errorMessage || t('events.noErrorMessage')}
                          </span>
                        )}
                      </td>
                      <td className="py-2 pr-2">{record.attempts}</td>
                      <td className="py-2">{formatDateTime(record.processedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </PanelSection>
        </>
      )}
    </ChangePanel>
  );
}
