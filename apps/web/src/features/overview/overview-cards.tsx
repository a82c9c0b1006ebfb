import type { ReactNode } from 'react';
import type { StaffOverview, TenantOverview } from '@console/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiErrorAlert } from '@/components/api-error-alert';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/app/paths';
import { formatDateTime, formatDuration } from '@/lib/format';
import { useOverviewQuery } from './api';

/**
 * The figures under the dashboard's welcome text, each card a link to its screen: for staff the
 * whole console, for a tenant user its own tenant. They refresh themselves while the page is open.
 */
export function OverviewCards() {
  const { t } = useTranslation();
  const overview = useOverviewQuery();
  if (overview.isPending) {
    return (
      // A status region: a plain div may not carry aria-label (axe's aria-prohibited-attr).
      <div
        role="status"
        className={GRID}
        aria-busy="true"
        aria-label={t('dashboard.overview.loading')}
      >
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} className="h-28 rounded-xl" />
        ))}
      </div>
    );
  }
  if (overview.isError) {
    return <ApiErrorAlert error={overview.error} onRetry={() => void overview.refetch()} />;
  }
  const data = overview.data;
  return (
    <section aria-labelledby="overview-heading" className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="overview-heading" className="text-lg font-semibold">
          {t('dashboard.overview.title')}
        </h2>
        <p className="text-muted-foreground text-sm">
          {t('dashboard.overview.asOf', { time: formatDateTime(data.asOf) })}
        </p>
      </div>
      <div className={GRID}>
        {data.audience === 'staff' ? (
          <StaffCards overview={data} />
        ) : (
          <TenantCards overview={data} />
        )}
      </div>
    </section>
  );
}

const GRID = 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3';

function StaffCards({ overview }: { overview: StaffOverview }) {
  const { t } = useTranslation();
  const { lastRatingsImport: lastImport, mails, pendingMigrations } = overview;
  return (
    <>
      <CountCard title={t('pages.tenants')} to={paths.tenants()} count={overview.tenants} />
      <CountCard title={t('pages.entities')} to={paths.entities()} count={overview.entities} />
      <CountCard
        title={t('pages.entityUsers')}
        to={paths.entityUsers()}
        count={overview.entityUsers}
      />
      <OverviewCard title={t('pages.events')} to={paths.events()} className="sm:col-span-2">
        <EventWorkersTable workers={overview.eventWorkers} />
      </OverviewCard>
      <OverviewCard title={t('dashboard.overview.lastImport')} to={paths.fatfImport()}>
        {lastImport ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted-foreground">{t('dashboard.overview.importStatus')}</dt>
            <dd>{t(`dashboard.overview.importStatuses.${lastImport.status}`)}</dd>
            <dt className="text-muted-foreground">{t('dashboard.overview.importStarted')}</dt>
            <dd>{formatDateTime(lastImport.startedAt)}</dd>
            <dt className="text-muted-foreground">{t('dashboard.overview.importRecords')}</dt>
            <dd>
              {t('dashboard.overview.importedOf', {
                imported: lastImport.imported,
                records: lastImport.records,
              })}
            </dd>
          </dl>
        ) : (
          <p className="text-muted-foreground text-sm">{t('dashboard.overview.noImport')}</p>
        )}
      </OverviewCard>
      <OverviewCard title={t('dashboard.overview.mails')} to={paths.emailTemplates()}>
        <p className="text-sm">
          {t('dashboard.overview.mailsSentFailed', { sent: mails.sent, failed: mails.failed })}
        </p>
      </OverviewCard>
      <OverviewCard title={t('pages.migrations')} to={paths.migrations()}>
        <p className="text-sm">
          {pendingMigrations === 0
            ? t('dashboard.overview.migrationsUpToDate')
            : t('dashboard.overview.migrationsPending', { count: pendingMigrations })}
        </p>
      </OverviewCard>
    </>
  );
}

function TenantCards({ overview }: { overview: TenantOverview }) {
  const { t } = useTranslation();
  return (
    <>
      <CountCard title={t('pages.entities')} to={paths.entities()} count={overview.entities} />
      <CountCard
        title={t('pages.entityUsers')}
        to={paths.entityUsers()}
        count={overview.entityUsers}
      />
      <OverviewCard title={t('pages.events')} to={paths.events()}>
        <p className="text-sm">
          {t('dashboard.overview.eventsWaitingFailed', {
            waiting: overview.events.waiting,
            failed: overview.events.failed,
          })}
        </p>
      </OverviewCard>
    </>
  );
}

function EventWorkersTable({ workers }: { workers: StaffOverview['eventWorkers'] }) {
  const { t } = useTranslation();
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">{t('dashboard.overview.workersCaption')}</caption>
        <thead className="text-muted-foreground text-left">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              {t('dashboard.overview.worker')}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t('dashboard.overview.waiting')}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t('dashboard.overview.failed')}
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              {t('dashboard.overview.oldestWaiting')}
            </th>
          </tr>
        </thead>
        <tbody>
          {workers.map((worker) => (
            <tr key={worker.worker} className="border-t">
              <th scope="row" className="py-1 pr-3 text-left font-normal">
                {worker.worker}
              </th>
              <td className="py-1 pr-3 text-right tabular-nums">{worker.waiting}</td>
              <td
                className={`py-1 pr-3 text-right tabular-nums ${worker.failed > 0 ? 'text-destructive font-semibold' : ''}`}
              >
                {worker.failed}
              </td>
              <td className="py-1 text-right tabular-nums">
                {worker.waiting === 0 ? '—' : formatDuration(worker.oldestWaitingSeconds)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CountCard({ title, to, count }: { title: string; to: string; count: number }) {
  return (
    <OverviewCard title={title} to={to}>
      <p className="text-3xl font-semibold tabular-nums">{count.toLocaleString('en')}</p>
    </OverviewCard>
  );
}

/** A card whose title is the link to its screen. */
function OverviewCard({
  title,
  to,
  className,
  children,
}: {
  title: string;
  to: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>
          <h3>
            <Link to={to} className="hover:underline focus-visible:underline">
              {title}
            </Link>
          </h3>
        </CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
