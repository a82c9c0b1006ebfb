/**
 * The Database Scripts screen (spec part 2, sections 2, 4, 6 and 8): the catalogue, the selected
 * script with View/Hide Script and Execute Script (authorized users, after a confirmation that
 * names the script) or the restricted message, and the Recent Executions.
 */
import { useMemo, useState } from 'react';
import { CircleAlertIcon, CircleCheckIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { DatabaseScript } from '@console/contracts';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { WaitingForConfiguration } from '@/components/waiting-for-configuration';
import { addNamespaces } from '@/lib/i18n';
import { useServerPaging } from '@/lib/paging';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { databaseScripts } from '@/locales/en.json?databaseScripts&lang.json';
import {
  executeErrorText,
  scriptsErrorText,
  useExecuteScriptMutation,
  useHistoryQuery,
  useScriptsQuery,
} from './api';
import { executionsColumns, scriptsColumns } from './database-scripts-columns';

addNamespaces({ databaseScripts });

export default function DatabaseScriptsPage() {
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      <PageHeader title={t('pages.databaseScripts')} />
      <WaitingForConfiguration>
        <ScriptsContent />
        <RecentExecutions />
      </WaitingForConfiguration>
    </div>
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

function ScriptsContent() {
  const { t } = useTranslation();
  const scripts = useScriptsQuery();
  const [selectedId, setSelectedId] = useState<number>();
  const columns = useMemo(() => scriptsColumns(t), [t]);
  const selected = scripts.data?.scripts.find((script) => script.id === selectedId);

  if (scripts.isError) {
    return (
      <Alert variant="destructive">
        <CircleAlertIcon aria-hidden="true" />
        <AlertDescription>
          <p>{scriptsErrorText(scripts.error, t)}</p>
          <Button variant="outline" size="sm" onClick={() => void scripts.refetch()}>
            {t('common.retry')}
          </Button>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Section title={t('databaseScripts.scriptsTitle')}>
      <QueryTable
        query={{ ...scripts, data: scripts.data?.scripts, refetch: scripts.refetch }}
        columns={columns}
        label={t('databaseScripts.scriptsTitle')}
        emptyText={t('databaseScripts.empty')}
        pageSizeKey={PAGE_SIZE_KEYS.databaseScripts}
        getRowId={(row) => String(row.id)}
        rowSelection={{
          selectedId: selectedId === undefined ? undefined : String(selectedId),
          onSelect: (script) => setSelectedId(script.id),
        }}
      />
      {scripts.data && !scripts.data.isUserAuthorizedForScripts && (
        <Alert>
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription>{t('databaseScripts.restricted')}</AlertDescription>
        </Alert>
      )}
      {selected ? (
        <SelectedScript
          key={selected.id}
          script={selected}
          authorized={scripts.data?.isUserAuthorizedForScripts ?? false}
        />
      ) : (
        <p className="text-muted-foreground text-sm">{t('databaseScripts.selectHint')}</p>
      )}
    </Section>
  );
}

type Outcome = { kind: 'success' | 'error'; text: string } | null;

/** Spec 4: idle, then processing; the outcome stays under the script until another is run. */
function SelectedScript({ script, authorized }: { script: DatabaseScript; authorized: boolean }) {
  const { t } = useTranslation();
  const [showContent, setShowContent] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const execute = useExecuteScriptMutation();

  const run = async () => {
    setOutcome(null);
    try {
      const result = await execute.mutateAsync(script.id);
      if (result.success) {
        const text = t('databaseScripts.executed', { name: script.name });
        setOutcome({ kind: 'success', text });
        toast.success(text);
      } else {
        setOutcome({ kind: 'error', text: result.errorDetails ?? t('databaseScripts.failed') });
        toast.error(t('databaseScripts.failed'));
      }
    } catch (error) {
      setOutcome({ kind: 'error', text: executeErrorText(error, t) });
      toast.error(t('databaseScripts.failed'));
    } finally {
      setConfirming(false);
    }
  };

  return (
    <div className="bg-card space-y-3 rounded-lg border p-4" role="group" aria-label={script.name}>
      <div>
        <h3 className="font-semibold">{script.name}</h3>
        <p className="text-muted-foreground text-sm">{script.description}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => setShowContent((shown) => !shown)}>
          {showContent ? t('databaseScripts.hideScript') : t('databaseScripts.viewScript')}
        </Button>
        {authorized && (
          <Button disabled={execute.isPending} onClick={() => setConfirming(true)}>
            {execute.isPending
              ? t('databaseScripts.executing')
              : t('databaseScripts.executeScript')}
          </Button>
        )}
      </div>
      {showContent && (
        <pre
          className="bg-muted max-h-96 overflow-auto rounded-md p-3 text-sm"
          aria-label={`${script.name} SQL`}
        >
          {script.content}
        </pre>
      )}
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
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('databaseScripts.confirmTitle')}
        description={t('databaseScripts.confirmDescription', {
          name: script.name,
          version: script.version,
        })}
        confirmLabel={t('databaseScripts.confirm')}
        pendingLabel={t('databaseScripts.executing')}
        isPending={execute.isPending}
        onConfirm={() => void run()}
      />
    </div>
  );
}

function RecentExecutions() {
  const { t } = useTranslation();
  const paging = useServerPaging(PAGE_SIZE_KEYS.scriptExecutions);
  const history = useHistoryQuery(paging.offsetRequest);
  const columns = useMemo(() => executionsColumns(t), [t]);
  return (
    <Section title={t('databaseScripts.recentExecutions')}>
      <QueryTable
        query={history}
        paging={paging}
        columns={columns}
        label={t('databaseScripts.recentExecutions')}
        emptyText={t('databaseScripts.noExecutions')}
        getRowId={(row) => String(row.id)}
      />
    </Section>
  );
}
