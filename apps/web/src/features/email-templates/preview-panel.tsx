import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { EmailTemplatePreview } from '@console/contracts';
import { ApiErrorAlert } from '@/components/api-error-alert';
import { Button } from '@/components/ui/button';
import { previewEmailTemplate } from './api';
import { versionRequest, type VersionContent } from './editor-state';
import { Section } from './editor-controls';

/**
 * The document the preview frame shows: the server's sanitised HTML under a policy of its own
 * that allows no script and no load from anywhere (images only from data: URLs). The frame's
 * empty `sandbox` also forbids scripts, forms, popups and same-origin access.
 */
export function previewDocument(html: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"></head><body>${html}</body></html>`;
}

/** The selected version rendered with sample data from its schema, on request. */
export function PreviewPanel({ content }: { content: VersionContent }) {
  const { t } = useTranslation();
  const preview = useMutation<EmailTemplatePreview, unknown, VersionContent>({
    mutationFn: (shown) => {
      const { subject, body, textContent, jsonSchema } = versionRequest(shown);
      return previewEmailTemplate({ subject, body, textContent, jsonSchema });
    },
  });
  return (
    <Section title={t('emailTemplates.editor.preview')}>
      <div>
        <Button
          variant="outline"
          onClick={() => preview.mutate(content)}
          disabled={preview.isPending}
        >
          {t('emailTemplates.editor.refreshPreview')}
        </Button>
      </div>
      {preview.isError && (
        <ApiErrorAlert error={preview.error} fallback={t('emailTemplates.errors.previewFailed')} />
      )}
      {preview.data && (
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
