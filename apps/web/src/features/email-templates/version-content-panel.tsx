import { useTranslation } from 'react-i18next';
import {
  BODY_MAX_LENGTH,
  FROM_ADDRESS_MAX_LENGTH,
  JSON_SCHEMA_MAX_LENGTH,
  SUBJECT_MAX_LENGTH,
} from '@console/contracts';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { textFromHtml, type VersionContent } from './editor-state';
import { Section, TextAreaControl } from './editor-controls';

/** The selected version's content: from address, subject, HTML, text and JSON Schema. */
export function VersionContentPanel({
  label,
  content,
  onChange,
}: {
  label: string;
  content: VersionContent;
  onChange: (content: VersionContent) => void;
}) {
  const { t } = useTranslation();
  const set = (patch: Partial<VersionContent>) => onChange({ ...content, ...patch });
  return (
    <Section title={`${t('emailTemplates.editor.content')} (${label})`}>
      <div className="grid gap-4 md:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="version-from">{t('emailTemplates.editor.fromAddress')}</Label>
          <Input
            id="version-from"
            value={content.fromAddress}
            maxLength={FROM_ADDRESS_MAX_LENGTH}
            onChange={(event) => set({ fromAddress: event.target.value })}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="version-subject">{t('emailTemplates.editor.subject')}</Label>
          <Input
            id="version-subject"
            value={content.subject}
            maxLength={SUBJECT_MAX_LENGTH}
            onChange={(event) => set({ subject: event.target.value })}
          />
        </div>
      </div>
      <TextAreaControl
        id="version-body"
        label={t('emailTemplates.editor.body')}
        value={content.body}
        maxLength={BODY_MAX_LENGTH}
        rows={14}
        onChange={(body) => set({ body })}
      />
      <TextAreaControl
        id="version-text"
        label={t('emailTemplates.editor.textContent')}
        value={content.textContent}
        maxLength={BODY_MAX_LENGTH}
        hint={t('emailTemplates.editor.textHint')}
        onChange={(textContent) => set({ textContent })}
      />
      <div>
        <Button variant="outline" onClick={() => set({ textContent: textFromHtml(content.body) })}>
          {t('emailTemplates.editor.deriveText')}
        </Button>
      </div>
      <TextAreaControl
        id="version-schema"
        label={t('emailTemplates.editor.jsonSchema')}
        value={content.jsonSchema}
        maxLength={JSON_SCHEMA_MAX_LENGTH}
        hint={t('emailTemplates.editor.jsonSchemaHint')}
        onChange={(jsonSchema) => set({ jsonSchema })}
      />
    </Section>
  );
}
