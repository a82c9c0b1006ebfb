/**
 * The email template editor (spec part 2, "Email template editor"; sections 4, 5 and 8): the
 * template's properties, its versions (Active/Draft, asterisk when modified), the selected
 * version's content, a sandboxed preview, the three-step save and the test-send dialog.
 */
import { useState } from 'react';
import { ArrowLeftIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { EmailTemplate } from '@console/contracts';
import { NEW_EMAIL_TEMPLATE_ID, paths } from '@/app/paths';
import { ApiErrorAlert } from '@/components/api-error-alert';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { addNamespaces } from '@/lib/i18n';
import { emailTemplates } from '@/locales/en.json?emailTemplates&lang.json';
import {
  createEmailTemplate,
  createEmailTemplateVersion,
  emailTemplatesQueryKeys,
  updateEmailTemplate,
  useEmailTemplateQuery,
} from './api';
import {
  editorVersions,
  modifiedVersions,
  newDraft,
  saveTemplate,
  versionLabel,
  versionRequest,
  type EditorVersion,
  type VersionContent,
} from './editor-state';
import { PreviewPanel } from './preview-panel';
import { PropertiesPanel, type TemplateProperties } from './properties-panel';
import { TestSendDialog } from './test-send-dialog';
import { VersionContentPanel } from './version-content-panel';
import { VersionsPanel } from './versions-panel';

addNamespaces({ emailTemplates });

/** The template id of the route, or null when it is not a canonical id. */
function canonicalIdOrNull(id: string | undefined): number | null {
  return id && /^[1-9][0-9]{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : null;
}

export default function EmailTemplateEditPage() {
  const { id } = useParams();
  const isNew = id === NEW_EMAIL_TEMPLATE_ID;
  const templateId = isNew ? null : canonicalIdOrNull(id);
  const query = useEmailTemplateQuery(templateId);
  const { t } = useTranslation();
  const title = t(isNew ? 'pages.emailTemplateNew' : 'pages.emailTemplateEdit');
  if (!isNew && (templateId === null || query.isError)) {
    return (
      <>
        <EditorHeader title={title} />
        <ApiErrorAlert
          error={query.error}
          fallback={t('emailTemplates.errors.loadFailed')}
          onRetry={query.isError ? () => void query.refetch() : undefined}
        />
      </>
    );
  }
  if (!isNew && !query.data) {
    return (
      <>
        <EditorHeader title={title} />
        <p role="status">{t('emailTemplates.editor.loading')}</p>
      </>
    );
  }
  // Keyed by the template's load: a reload after a save starts from what the server has.
  return (
    <Editor
      key={query.data ? `${query.data.id}-${query.dataUpdatedAt}` : 'new'}
      title={title}
      template={query.data ?? null}
    />
  );
}

function EditorHeader({ title }: { title: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <PageHeader
      title={title}
      actions={
        <Button variant="outline" onClick={() => void navigate(paths.emailTemplates())}>
          <ArrowLeftIcon aria-hidden="true" />
          {t('emailTemplates.editor.backToList')}
        </Button>
      }
    />
  );
}

const NEW_PROPERTIES: TemplateProperties = {
  templateKey: '',
  tenantId: null,
  partyEntityId: null,
  productType: 0,
  productScope: 0,
};

function Editor({ title, template }: { title: string; template: EmailTemplate | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [properties, setProperties] = useState<TemplateProperties>(
    template
      ? {
          templateKey: template.templateKey,
          tenantId: template.tenantId,
          partyEntityId: template.partyEntityId,
          productType: template.productType,
          productScope: template.productScope,
        }
      : NEW_PROPERTIES,
  );
  const [versions, setVersions] = useState<EditorVersion[]>(() =>
    template ? editorVersions(template) : [newDraft([], undefined)],
  );
  const [selectedKey, setSelectedKey] = useState<string | null>(() => {
    const active = template?.versions.find((v) => v.id === template.activeVersionId);
    return active ? String(active.id) : (versions.at(-1)?.key ?? null);
  });
  const [pendingActiveKey, setPendingActiveKey] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState<EditorVersion[] | null>(null);
  const [testOpen, setTestOpen] = useState(false);

  const selected = versions.find((version) => version.key === selectedKey);
  const activeVersionId = template?.activeVersionId ?? null;

  const editSelected = (content: VersionContent) =>
    setVersions((current) =>
      current.map((version) => (version.key === selectedKey ? { ...version, content } : version)),
    );

  const addVersion = () => {
    const draft = newDraft(versions, selected);
    setVersions((current) => [...current, draft]);
    setSelectedKey(draft.key);
    toast.success(t('emailTemplates.versionCreated'));
  };

  const markActive = () => {
    if (!selected) return;
    setPendingActiveKey(selected.key);
    toast.success(t('emailTemplates.markedActive'));
  };

  /** Spec 5: key, from address and subject required; a version selected. */
  const validate = (): string[] => {
    const found: string[] = [];
    if (!properties.templateKey.trim()) found.push(t('emailTemplates.errors.keyRequired'));
    if (!selected) found.push(t('emailTemplates.errors.versionRequired'));
    for (const version of versions.filter((v) => v.id === null || v.key === selectedKey)) {
      if (!version.content.fromAddress.trim()) found.push(t('emailTemplates.errors.fromRequired'));
      if (!version.content.subject.trim()) found.push(t('emailTemplates.errors.subjectRequired'));
    }
    return [...new Set(found)];
  };

  const save = async (toSave: EditorVersion[]) => {
    setSaveError(null);
    setSaving(true);
    try {
      await saveTemplate(
        {
          templateId: template?.id ?? null,
          versions: toSave,
          pendingActiveKey,
          activeVersionId,
        },
        {
          createTemplate: () => createEmailTemplate(properties),
          createVersion: (id, content) => createEmailTemplateVersion(id, versionRequest(content)),
          updateTemplate: (id, active) =>
            updateEmailTemplate(id, { id, ...properties, activeVersionId: active }),
        },
      );
      await queryClient.invalidateQueries({ queryKey: emailTemplatesQueryKeys.all });
      toast.success(t('emailTemplates.saved'));
      void navigate(paths.emailTemplates());
    } catch (error) {
      setSaveError(error);
    } finally {
      setSaving(false);
    }
  };

  const startSave = () => {
    const found = validate();
    setProblems(found);
    if (found.length > 0) return;
    const modified = modifiedVersions(versions);
    if (modified.length > 0) {
      setConfirmDiscard(modified);
      return;
    }
    void save(versions);
  };

  /** Discarding: saved versions go back to their saved content, then the save runs again. */
  const discardAndSave = () => {
    const restored = versions.map((version) =>
      version.saved ? { ...version, content: version.saved } : version,
    );
    setVersions(restored);
    setConfirmDiscard(null);
    void save(restored);
  };

  return (
    <>
      <EditorHeader title={title} />
      <div className="grid gap-6">
        <PropertiesPanel
          properties={properties}
          onChange={setProperties}
          keyReadOnly={template !== null}
        />
        <VersionsPanel
          versions={versions}
          selectedKey={selectedKey}
          activeVersionId={activeVersionId}
          pendingActiveKey={pendingActiveKey}
          onSelect={setSelectedKey}
          onNewVersion={addVersion}
          onMarkActive={markActive}
          onSendTest={() => setTestOpen(true)}
          templateKey={properties.templateKey}
        />
        {selected && (
          <VersionContentPanel
            key={selected.key}
            label={versionLabel(selected)}
            content={selected.content}
            onChange={editSelected}
          />
        )}
        {selected && <PreviewPanel key={`preview-${selected.key}`} content={selected.content} />}
        {problems.length > 0 && (
          <ul role="alert" className="text-destructive text-sm">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
        {saveError !== null && (
          <ApiErrorAlert error={saveError} fallback={t('emailTemplates.errors.saveFailed')} />
        )}
        <div className="flex gap-2">
          <Button onClick={startSave} disabled={saving}>
            {saving ? t('emailTemplates.editor.saving') : t('emailTemplates.editor.save')}
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={confirmDiscard !== null}
        onOpenChange={(open) => {
          if (!open) setConfirmDiscard(null);
        }}
        title={t('emailTemplates.editor.discardTitle')}
        description={t('emailTemplates.editor.discardDescription', {
          versions: (confirmDiscard ?? []).map(versionLabel).join(', '),
        })}
        confirmLabel={t('emailTemplates.editor.discardConfirm')}
        cancelLabel={t('emailTemplates.editor.keepEditing')}
        onConfirm={discardAndSave}
      />
      {selected && selected.id !== null && (
        <TestSendDialog
          open={testOpen}
          onOpenChange={setTestOpen}
          templateKey={properties.templateKey}
          version={{ id: selected.id, versionNumber: selected.versionNumber }}
        />
      )}
    </>
  );
}
