import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiErrorAlert } from '@/components/api-error-alert';
import { Button } from '@/components/ui/button';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { emailTemplatesQueryKeys, previewEmailTemplate } from './api';
import { versionRequest, type VersionContent } from './editor-state';
import { Section } from './editor-controls';

/** How long the preview waits for typing to pause before it renders the edited version again. */
export const PREVIEW_DEBOUNCE_MS = 500;

/**
 * The document the preview frame shows: the server's sanitised HTML under a policy of its own
 * that allows no script and no load from anywhere (images only from data: URLs). The frame's
 * empty `sandbox` also forbids scripts, forms, popups and same-origin access.
 */
export function previewDocument(html: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"></head><body>${html}</body></html>`;
}

/**
 * The selected version rendered with sample data from its schema: at once when the panel opens,
 * again once an edit has rested for PREVIEW_DEBOUNCE_MS (the last preview stays meanwhile), and
 * on Refresh preview. The editor mounts one panel per selected version.
 */
export function PreviewPanel({ content }: { content: VersionContent }) {
  const { t } = useTranslation();
  const shown = useDebouncedValue(content, PREVIEW_DEBOUNCE_MS);
  const { subject, body, textContent, jsonSchema } = versionRequest(shown);
  const request = { subject, body, textContent, jsonSchema };
  const preview = useQuery({
    queryKey: emailTemplatesQueryKeys.preview(request),
    queryFn: ({ signal }) => previewEmailTemplate(request, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <Section title={t('emailTemplates.editor.preview')}>
      <div className="flex items-center gap-3">
        <Button
          variant="outline"
          onClick={() => void preview.refetch()}
          disabled={preview.isFetching}
        >
          {t('emailTemplates.editor.refreshPreview')}
        </Button>
        {preview.isFetching && (
          <span role="status" className="text-muted-foreground text-sm">
            {t('emailTemplates.editor.rendering')}
          </span>
        )}
      </div>
      {preview.isError && (
        <ApiErrorAlert error={preview.error} fallback={t('emailTemplates.errors.previewFailed')} />
      )}
      {preview.data && !preview.isError && (
        <div className="grid gap-3">
          <p className="text-sm font-medium">
            {t('emailTemplates.editor.previewSubject', { subject: preview.data.subject })}
          </p>
          <iframe
            title={t('emailTemplates.editor.previewFrame')}
            sandbox=""
            referrerPolicy="no-referrer"
            srcDoc={previewDocument(preview.data.html)}
            className="h-[480px] w-full rounded-md border bg-white"
          />
          <details>
            <summary className="cursor-pointer text-sm">
              {t('emailTemplates.editor.previewText')}
            </summary>
            <pre className="bg-muted mt-2 overflow-auto rounded-md p-3 text-xs whitespace-pre-wrap">
              {preview.data.text}
            </pre>
          </details>
        </div>
      )}
    </Section>
  );
}
