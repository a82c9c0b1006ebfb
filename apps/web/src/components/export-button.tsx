/**
 * The Export control of every list screen (issue 31, part 5): a menu of the two formats that
 * downloads the whole list under the screen's filters (`GET {list}/export?format=…`), not the
 * page shown. The answer streams in; the control says how much has arrived, in a status that
 * screen readers announce, and can cancel. The file keeps the name the server gave it.
 */
import { lazy, useRef, useState } from 'react';
import { ChevronDownIcon, DownloadIcon, XIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { exportFileName, type ExportFormat } from '@console/contracts';
import { Button } from '@/components/ui/button';
import { LazyMenu } from '@/components/lazy-menu';
import { api, apiErrorText } from '@/lib/api-client';
import { saveFile } from '@/lib/download';
import { addNamespaces } from '@/lib/i18n';
import { exportList } from '@/locales/en.json?exportList&lang.json';

addNamespaces({ exportList });

// The menu of formats loads on the control's first use: a list screen is usable before it is.
const loadMenu = () => import('./export-menu');
const ExportMenu = lazy(loadMenu);

/** A filter of the list as the screen holds it; unset ones are left out of the query. */
export type ExportFilters = Readonly<Record<string, string | number | boolean | undefined>>;

/** The export's path: the list's export path with its filters and the format. */
export function exportRequestPath(path: string, filters: ExportFilters, format: ExportFormat) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  query.set('format', format);
  return `${path}?${query.toString()}`;
}

const megabytes = new Intl.NumberFormat('en', {
  style: 'unit',
  unit: 'megabyte',
  maximumFractionDigits: 1,
});
const kilobytes = new Intl.NumberFormat('en', { style: 'unit', unit: 'kilobyte' });

/** '640 kB', '12.3 MB'. */
function formatSize(bytes: number): string {
  return bytes < 1_000_000
    ? kilobytes.format(Math.ceil(bytes / 1000))
    : megabytes.format(bytes / 1_000_000);
}

type ExportState =
  | { status: 'idle' }
  | { status: 'running'; bytes: number }
  | { status: 'done'; fileName: string }
  | { status: 'failed'; message: string };

export interface ExportButtonProps {
  /** The list's export path (`apiPath(tenantsApi.export)`). */
  path: string;
  /** What the file's name starts with when the server gives none: `tenants`. */
  name: string;
  /** The screen's filters, sent as the list sends them. */
  filters?: ExportFilters;
}

export function ExportButton({ path, name, filters = {} }: ExportButtonProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<ExportState>({ status: 'idle' });
  const abort = useRef<AbortController | null>(null);

  async function download(format: ExportFormat) {
    const controller = new AbortController();
    abort.current = controller;
    setState({ status: 'running', bytes: 0 });
    try {
      const file = await api.download(exportRequestPath(path, filters, format), {
        signal: controller.signal,
        onProgress: (bytes) => setState({ status: 'running', bytes }),
      });
      const fileName = file.fileName ?? exportFileName(name, format, new Date());
      saveFile(file.blob, fileName);
      setState({ status: 'done', fileName });
    } catch (error) {
      if (controller.signal.aborted) {
        setState({ status: 'failed', message: t('exportList.cancelled') });
        return;
      }
      const message = t('exportList.failed', { message: apiErrorText(error) });
      setState({ status: 'failed', message });
      toast.error(message);
    } finally {
      abort.current = null;
    }
  }

  const running = state.status === 'running';
  return (
    <div className="flex flex-wrap items-center gap-2">
      <LazyMenu
        prefetch={loadMenu}
        menu={(trigger, openedByKeyboard) => (
          <ExportMenu
            trigger={trigger}
            openedByKeyboard={openedByKeyboard}
            onChoose={(format) => void download(format)}
          />
        )}
        button={(props) => (
          <Button variant="outline" disabled={running} {...props}>
            <DownloadIcon aria-hidden="true" />
            {t('exportList.button')}
            <ChevronDownIcon aria-hidden="true" />
          </Button>
        )}
      />
      {running && (
        <>
          {/* No total is known before the end (the list streams): an indeterminate bar. */}
          <progress aria-label={t('exportList.progress')} className="h-2 w-24" />
          <Button
            variant="ghost"
            size="icon"
            aria-label={t('exportList.cancel')}
            onClick={() => abort.current?.abort()}
          >
            <XIcon aria-hidden="true" />
          </Button>
        </>
      )}
      <span role="status" aria-live="polite" className="text-muted-foreground text-sm">
        {state.status === 'running' && t('exportList.running', { size: formatSize(state.bytes) })}
        {state.status === 'done' && t('exportList.done', { fileName: state.fileName })}
        {state.status === 'failed' && state.message}
      </span>
    </div>
  );
}
