/**
 * The audit log screen (issue 31): who changed what, when, newest first, paged on the server;
 * its filters live in the URL so that a link reproduces the view. A row's "Show changes" opens
 * the before/after panel.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  AUDIT_ACTIONS,
  AUDIT_SEARCH_MAX_LENGTH,
  AUDIT_TARGET_ID_MAX_LENGTH,
  AUDIT_TARGET_TYPES,
  EMAIL_MAX_LENGTH,
  apiPath,
  auditApi,
  type AuditEntry,
} from '@console/contracts';
import { ListScreen, QueryTable, usePageNumberPagerTexts } from '@/components/data-table';
import { ExportButton } from '@/components/export-button';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { addNamespaces } from '@/lib/i18n';
import { usePageCursor, useServerPaging } from '@/lib/paging';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { auditLog } from '@/locales/en.json?auditLog&lang.json';
import {
  auditFilterParams,
  auditFiltersFrom,
  useAuditQuery,
  type AuditFilterName,
  type AuditFilters,
} from './api';
import { AuditEntryPanel } from './audit-entry-panel';
import { auditLogColumns } from './audit-log-columns';

addNamespaces({ auditLog });

/** A select's value for "no filter" (a select item cannot have the empty value). */
const ANY = '*';

export default function AuditLogPage() {
  const { t } = useTranslation();
  return (
    <ListScreen title={t('pages.auditLog')}>
      <AuditLogView />
    </ListScreen>
  );
}

function AuditLogView() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => auditFiltersFrom(searchParams), [searchParams]);
  const numbered = useServerPaging(PAGE_SIZE_KEYS.auditLog);
  const { cursor, steppingFrom } = usePageCursor(numbered);
  const { page, pageSize } = numbered;
  const audit = useAuditQuery({ page, pageSize, filters, cursor });
  // Previous / Next step from the rows on screen, not from the page before's still shown.
  const paging = steppingFrom(audit.isPlaceholderData ? undefined : audit.data?.data);
  const { setPage } = paging;
  const [shown, setShown] = useState<AuditEntry | null>(null);
  // Beyond the exact threshold the server counts by estimate (docs/audit.md, "Totals").
  const pagerTexts = usePageNumberPagerTexts(audit.data?.totalIsEstimate === true);
  const columns = useMemo(() => auditLogColumns(t, setShown), [t]);

  function applyFilters(next: AuditFilters) {
    setSearchParams(auditFilterParams(next));
    setPage(1);
  }

  return (
    <div className="flex flex-col gap-4">
      {/* Remounted when the URL changes (back, a link): the form shows the filters applied. */}
      <AuditFiltersForm key={searchParams.toString()} applied={filters} onApply={applyFilters} />
      {/* The filters applied (the URL's), not the form's draft: the file is the list shown. */}
      <div className="flex justify-end">
        <ExportButton path={apiPath(auditApi.export)} name="audit-log" filters={filters} />
      </div>
      <QueryTable<AuditEntry>
        query={audit}
        paging={paging}
        pagerTexts={pagerTexts}
        columns={columns}
        label={t('pages.auditLog')}
        emptyText={t('auditLog.empty')}
        getRowId={(row) => String(row.id)}
      />
      <AuditEntryPanel entry={shown} onClose={() => setShown(null)} />
    </div>
  );
}

const TEXT_FILTERS = [
  { name: 'actor', type: 'search', max: EMAIL_MAX_LENGTH, placeholder: 'actorPlaceholder' },
  { name: 'targetId', type: 'search', max: AUDIT_TARGET_ID_MAX_LENGTH },
  { name: 'tenantId', type: 'search', max: 10, inputMode: 'numeric' },
  { name: 'q', type: 'search', max: AUDIT_SEARCH_MAX_LENGTH, placeholder: 'qPlaceholder' },
  { name: 'from', type: 'date' },
  { name: 'to', type: 'date' },
] as const satisfies readonly {
  name: AuditFilterName;
  type: 'search' | 'date';
  max?: number;
  placeholder?: string;
  inputMode?: 'numeric';
}[];

const CHOICE_FILTERS = [
  { name: 'action', options: AUDIT_ACTIONS },
  { name: 'targetType', options: AUDIT_TARGET_TYPES },
] as const satisfies readonly { name: AuditFilterName; options: readonly string[] }[];

/** The filters, applied together with Apply (or Enter), cleared with Clear filters. */
function AuditFiltersForm({
  applied,
  onApply,
}: {
  applied: AuditFilters;
  onApply: (filters: AuditFilters) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(applied);
  const set = (name: AuditFilterName, value: string) =>
    setDraft((current) => ({ ...current, [name]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(draft);
  }

  return (
    <form
      aria-label={t('auditLog.filters.label')}
      onSubmit={submit}
      className="grid grid-cols-2 items-end gap-3 md:grid-cols-4 xl:grid-cols-5"
    >
      {CHOICE_FILTERS.map(({ name, options }) => (
        <div key={name} className="flex min-w-0 flex-col gap-2">
          <Label htmlFor={`audit-${name}`}>{t(`auditLog.filters.${name}`)}</Label>
          <Select
            value={draft[name] === '' ? ANY : draft[name]}
            onValueChange={(value) => set(name, value === ANY ? '' : value)}
          >
            <SelectTrigger id={`audit-${name}`} className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent className="max-h-72">
              <SelectItem value={ANY}>{t('auditLog.filters.any')}</SelectItem>
              {options.map((option) => (
                <SelectItem key={option} value={option}>
                  {option}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      ))}
      {TEXT_FILTERS.map((filter) => (
        <div key={filter.name} className="flex min-w-0 flex-col gap-2">
          <Label htmlFor={`audit-${filter.name}`}>{t(`auditLog.filters.${filter.name}`)}</Label>
          <Input
            id={`audit-${filter.name}`}
            type={filter.type}
            value={draft[filter.name]}
            onChange={(event) => set(filter.name, event.target.value)}
            {...('max' in filter ? { maxLength: filter.max } : {})}
            {...('placeholder' in filter
              ? { placeholder: t(`auditLog.filters.${filter.placeholder}`) }
              : {})}
            {...('inputMode' in filter ? { inputMode: filter.inputMode } : {})}
          />
        </div>
      ))}
      <div className="flex gap-2">
        <Button type="submit">{t('auditLog.filters.apply')}</Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => onApply(auditFiltersFrom(new URLSearchParams()))}
        >
          {t('auditLog.filters.clear')}
        </Button>
      </div>
    </form>
  );
}
