import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/utils';
import {
  isModified,
  testSendBlocker,
  versionLabel,
  versionStatus,
  type EditorVersion,
} from './editor-state';
import { Section } from './editor-controls';

/**
 * The versions as Active or Draft, a modified saved version with an asterisk and a modified
 * status (spec 2); new version, mark active (pending until saved, spec 4) and the test button,
 * disabled unless the selected version is saved (spec 5).
 */
export function VersionsPanel({
  versions,
  selectedKey,
  activeVersionId,
  pendingActiveKey,
  onSelect,
  onNewVersion,
  onMarkActive,
  onSendTest,
  templateKey,
}: {
  versions: readonly EditorVersion[];
  selectedKey: string | null;
  activeVersionId: number | null;
  pendingActiveKey: string | null;
  onSelect: (key: string) => void;
  onNewVersion: () => void;
  onMarkActive: () => void;
  onSendTest: () => void;
  templateKey: string;
}) {
  const { t } = useTranslation();
  const selected = versions.find((version) => version.key === selectedKey);
  const blocker = testSendBlocker(templateKey, selected);
  return (
    <Section title={t('emailTemplates.editor.versions')}>
      {versions.length === 0 ? (
        <p className="text-muted-foreground text-sm">{t('emailTemplates.editor.noVersions')}</p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-label={t('emailTemplates.editor.versions')}>
          {versions.map((version) => {
            const status = versionStatus(version, activeVersionId);
            return (
              <li key={version.key}>
                <button
                  type="button"
                  aria-pressed={version.key === selectedKey}
                  onClick={() => onSelect(version.key)}
                  className={cn(
                    'flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm',
                    version.key === selectedKey && 'border-primary bg-accent',
                  )}
                >
                  <span className="font-medium">{versionLabel(version)}</span>
                  <Badge variant={status === 'active' ? 'default' : 'secondary'}>
                    {t(`emailTemplates.editor.${status}`)}
                  </Badge>
                  {isModified(version) && (
                    <Badge variant="outline">{t('emailTemplates.editor.modified')}</Badge>
                  )}
                  {pendingActiveKey === version.key && status !== 'active' && (
                    <Badge variant="outline">{t('emailTemplates.editor.pendingActive')}</Badge>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={onNewVersion}>
          {t('emailTemplates.editor.newVersion')}
        </Button>
        <Button variant="outline" onClick={onMarkActive} disabled={!selected}>
          {t('emailTemplates.editor.markActive')}
        </Button>
        <Button
          variant="outline"
          onClick={onSendTest}
          disabled={blocker !== null}
          title={blocker ? t(`emailTemplates.editor.testDisabled.${blocker}`) : undefined}
        >
          {t('emailTemplates.editor.sendTest')}
        </Button>
      </div>
      {blocker && (
        <p className="text-muted-foreground text-xs">
          {t(`emailTemplates.editor.testDisabled.${blocker}`)}
        </p>
      )}
    </Section>
  );
}
