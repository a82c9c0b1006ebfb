/**
 * The Database Migrations screen (spec part 2, sections 2, 4, 6 and 8): the status cards, the
 * admin actions (Upgrade to Latest, Apply Seed Data) or the restricted message, and the pending
 * (ascending) and applied (descending) migrations.
 */
import { useMemo, useState } from 'react';
import { CircleAlertIcon, CircleCheckIcon, RefreshCwIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { MigrationStatus } from '@console/contracts';
import { QueryTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { WaitingForConfiguration } from '@/components/waiting-for-configuration';
import { formatDateTime } from '@/lib/format';
import { addNamespaces } from '@/lib/i18n';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { migrations } from '@/locales/en.json?migrations&lang.json';
import {
  callErrorText,
  migrationFailureText,
  statusErrorText,
  useApplyMigrationsMutation,
  useApplySeedMutation,
  useMigrationStatusQuery,
} from './api';
import { appliedColumns, pendingColumns } from './migrations-columns';

addNamespaces({ migrations });

export default function MigrationsPage() {
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      <PageHeader title={t('pages.migrations')} />
      <WaitingForConfiguration>
        <MigrationsContent />
      </WaitingForConfiguration>
    </div>
  );
}

function MigrationsContent() {
  const { t } = useTranslation();
  const status = useMigrationStatusQuery();
  const pending = useMemo(() => pendingColumns(t), [t]);
  const applied = useMemo(() => appliedColumns(t), [t]);
  // The tables read the status query's state (loading, error) with their own rows.
  const tableQuery = <T,>(rows: (data: MigrationStatus) => T[]) => ({
    ...status,
    data: status.data ? rows(status.data) : undefined,
    refetch: status.refetch,
  });

  if (status.isError) {
    return (
      <Alert variant="destructive">
        <CircleAlertIcon aria-hidden="true" />
        <AlertDescription>
          <p>{statusErrorText(status.error, t)}</p>
          <Button variant="outline" size="sm" onClick={() => void status.refetch()}>
            {t('common.retry')}
          </Button>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <>
      <StatusCards status={status.data} onRefresh={() => void status.refetch()} />
      {status.data && <AdminActions status={status.data} />}
      <Section title={t('migrations.pendingTitle')}>
        <QueryTable
          query={tableQuery((data) => data.pendingMigrations)}
          columns={pending}
          label={t('migrations.pendingTitle')}
          emptyText={t('migrations.noPending')}
          pageSizeKey={PAGE_SIZE_KEYS.migrations}
          initialSorting={[{ id: 'version', desc: false }]}
          getRowId={(row) => String(row.version)}
        />
      </Section>
      <Section title={t('migrations.appliedTitle')}>
        <QueryTable
          query={tableQuery((data) => data.appliedMigrations)}
          columns={applied}
          label={t('migrations.appliedTitle')}
          emptyText={t('migrations.noApplied')}
          pageSizeKey={PAGE_SIZE_KEYS.migrations}
          initialSorting={[{ id: 'version', desc: true }]}
          getRowId={(row) => String(row.version)}
        />
      </Section>
    </>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-3" aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** Spec 2: a status containing "connected" is green, one containing "error" red. */
export function connectionStatusClass(text: string): string {
  const lower = text.toLowerCase();
  if (lower.includes('connected')) return 'text-green-700 dark:text-green-400';
  if (lower.includes('error')) return 'text-red-700 dark:text-red-400';
  return '';
}

function StatusCards({
  status,
  onRefresh,
}: {
  status: MigrationStatus | undefined;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  const loading = t('common.loading');
  const lastMigration = status?.lastMigrationDate
    ? formatDateTime(status.lastMigrationDate)
    : t('migrations.never');
  return (
    <Section title={t('migrations.statusTitle')}>
      <div className="grid gap-4 md:grid-cols-3">
        <StatusCard title={t('migrations.currentVersion')}>
          <p className="text-2xl font-bold">{status ? status.currentVersion : loading}</p>
          {status && (
            <p className="text-muted-foreground text-sm">
              {t('migrations.lastMigration', { date: lastMigration })}
            </p>
          )}
        </StatusCard>
        <StatusCard title={t('migrations.database')}>
          <p className="font-medium break-all">{status ? status.databaseName : loading}</p>
          {status && (
            <p className="text-muted-foreground text-sm">
              {t(status.embedded ? 'migrations.serverEmbedded' : 'migrations.serverExternal', {
                version: status.serverVersion ?? t('migrations.versionUnknown'),
              })}
            </p>
          )}
        </StatusCard>
        <StatusCard title={t('migrations.connectionStatus')}>
          <p
            className={`font-medium ${status ? connectionStatusClass(status.connectionStatus) : ''}`}
            data-testid="connection-status"
          >
            {status ? status.connectionStatus : loading}
          </p>
        </StatusCard>
      </div>
      <Button variant="outline" size="sm" onClick={onRefresh}>
        <RefreshCwIcon aria-hidden="true" />
        {t('migrations.refresh')}
      </Button>
    </Section>
  );
}

function StatusCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="bg-card space-y-1 rounded-lg border p-4" role="group" aria-label={title}>
      <h3 className="text-muted-foreground text-sm font-medium">{title}</h3>
      {children}
    </div>
  );
}

type Outcome = { kind: 'success' | 'error'; text: string } | null;

/** Spec 4: idle, then processing; success refreshes the status, failure shows an error. */
function AdminActions({ status }: { status: MigrationStatus }) {
  const { t } = useTranslation();
  const upgrade = useApplyMigrationsMutation();
  const seed = useApplySeedMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const processing = upgrade.isPending || seed.isPending;
  // Spec 9: the upgrade target is the highest pending version.
  const target = Math.max(0, ...status.pendingMigrations.map((migration) => migration.version));

  const succeed = (text: string) => {
    setOutcome({ kind: 'success', text });
    toast.success(text);
  };
  const fail = (text: string, toastText: string) => {
    setOutcome({ kind: 'error', text });
    toast.error(toastText);
  };

  const onUpgrade = async () => {
    setOutcome(null);
    try {
      const result = await upgrade.mutateAsync(target);
      if (result.success)
        succeed(t('migrations.applied', { count: result.executedMigrations.length }));
      else fail(migrationFailureText(result, t), t('migrations.migrationFailed'));
    } catch (error) {
      fail(
        callErrorText(error, t) ?? migrationFailureText(undefined, t),
        t('migrations.migrationFailed'),
      );
    }
  };
  const onSeed = async () => {
    setOutcome(null);
    try {
      const result = await seed.mutateAsync();
      if (result.success) succeed(t('migrations.seedApplied'));
      else fail(t('migrations.seedFailed'), t('migrations.seedFailed'));
    } catch {
      fail(t('migrations.seedFailed'), t('migrations.seedFailed'));
    }
  };

  if (!status.isUserAuthorizedForMigrations) {
    return (
      <Section title={t('migrations.adminActions')}>
        <Alert>
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription>{t('migrations.restricted')}</AlertDescription>
        </Alert>
      </Section>
    );
  }
  return (
    <Section title={t('migrations.adminActions')}>
      <div className="flex flex-wrap gap-2">
        <Button disabled={processing || !status.canUpgrade} onClick={() => void onUpgrade()}>
          {upgrade.isPending ? t('migrations.processing') : t('migrations.upgradeToLatest')}
        </Button>
        <Button variant="outline" disabled={processing} onClick={() => void onSeed()}>
          {seed.isPending ? t('migrations.processing') : t('migrations.applySeed')}
        </Button>
      </div>
      <p className="text-muted-foreground text-sm">
        {status.canUpgrade
          ? t('migrations.upgradeTarget', { version: target })
          : t('migrations.nothingToUpgrade')}{' '}
        {t('migrations.seedHint')}
      </p>
      {outcome && (
        <Alert variant={outcome.kind === 'error' ? 'destructive' : 'default'}>
          {outcome.kind === 'error' ? (
            <CircleAlertIcon aria-hidden="true" />
          ) : (
            <CircleCheckIcon aria-hidden="true" />
          )}
          <AlertDescription>{outcome.text}</AlertDescription>
        </Alert>
      )}
    </Section>
  );
}
