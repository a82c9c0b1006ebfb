/**
 * The namespaces of a tenant (spec part 1, section 5): added one at a time, trimmed, each once;
 * removed with the button of each. With none, the server generates one from the company name
 * (the hint says so).
 */
import { useId, useState } from 'react';
import { PlusIcon, XIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

export function NamespacesEditor({
  value,
  onChange,
  draft,
  onDraftChange,
  hint,
  message,
}: {
  value: string[];
  onChange: (namespaces: string[]) => void;
  /** The namespace being typed. */
  draft: string;
  onDraftChange: (draft: string) => void;
  hint: string;
  /** A refusal of the rules (e.g. too long), shown under the editor. */
  message?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [duplicate, setDuplicate] = useState<string | null>(null);

  const addDraft = () => {
    const namespace = draft.trim();
    if (!namespace) return;
    if (value.includes(namespace)) {
      setDuplicate(namespace);
      return;
    }
    onChange([...value, namespace]);
    onDraftChange('');
    setDuplicate(null);
  };

  const problem = duplicate
    ? t('tenants.dialog.namespaceTwice', { namespace: duplicate })
    : message;
  const describedBy = [`${id}-hint`, problem && `${id}-message`].filter(Boolean).join(' ');

  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{t('tenants.dialog.namespaces')}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          value={draft}
          placeholder={t('tenants.dialog.namespacePlaceholder')}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={describedBy}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => {
            onDraftChange(event.target.value);
            setDuplicate(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              addDraft();
            }
          }}
        />
        <Button type="button" variant="outline" disabled={!draft.trim()} onClick={addDraft}>
          <PlusIcon aria-hidden="true" />
          {t('tenants.dialog.addNamespace')}
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-muted-foreground text-xs">
        {hint}
      </p>
      {problem && (
        <p id={`${id}-message`} className="text-destructive text-sm">
          {problem}
        </p>
      )}
      {value.length > 0 && (
        <ul aria-label={t('tenants.dialog.namespaces')} className="flex flex-wrap gap-2">
          {value.map((namespace) => (
            <li key={namespace}>
              <Badge variant="secondary" className="gap-1.5 py-1 pr-1 font-mono">
                {namespace}
                <button
                  type="button"
                  aria-label={t('tenants.dialog.removeNamespace', { namespace })}
                  className="hover:bg-background focus-visible:ring-ring/50 rounded-sm p-0.5 outline-none focus-visible:ring-[3px]"
                  onClick={() => onChange(value.filter((other) => other !== namespace))}
                >
                  <XIcon aria-hidden="true" className="size-3" />
                </button>
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
