/**
 * The namespaces of a tenant (spec part 1, section 5): added one at a time, trimmed, each once;
 * removed with the button of each. With none, the server generates one from the company name
 * (the hint says so). What is typed but not added is saved too (`namespaceDraft`).
 */
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ChipsInput, type ChipsAddition } from '@/components/form';
import type { TenantFormValues } from './tenant-form';

export function NamespacesField({ hint }: { hint: string }) {
  const { t } = useTranslation();
  const { setValue } = useFormContext<TenantFormValues>();
  const add = (namespaces: string[], draft: string): ChipsAddition => {
    const namespace = draft.trim();
    if (!namespace) return {};
    if (namespaces.includes(namespace)) {
      return { problem: t('tenants.dialog.namespaceTwice', { namespace }) };
    }
    return { chips: [...namespaces, namespace] };
  };
  return (
    <ChipsInput<TenantFormValues>
      name="namespaces"
      label={t('tenants.dialog.namespaces')}
      description={hint}
      placeholder={t('tenants.dialog.namespacePlaceholder')}
      addLabel={t('tenants.dialog.addNamespace')}
      removeLabel={(namespace) => t('tenants.dialog.removeNamespace', { namespace })}
      add={add}
      onDraftChange={(draft) => setValue('namespaceDraft', draft)}
      chipClassName="font-mono"
      autoComplete="off"
      spellCheck={false}
    />
  );
}
