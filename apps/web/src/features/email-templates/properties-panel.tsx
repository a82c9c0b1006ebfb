import { useTranslation } from 'react-i18next';
import {
  entityDisplayName,
  PRODUCT_SCOPES,
  PRODUCT_TYPES,
  TEMPLATE_KEY_MAX_LENGTH,
  type EmailTemplateCreateInput,
} from '@console/contracts';
import { ApiErrorAlert } from '@/components/api-error-alert';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useEntityChoicesQuery, useTenantChoicesQuery } from './api';
import { Section, SelectControl } from './editor-controls';

export interface TemplateProperties {
  templateKey: string;
  tenantId: number | null;
  partyEntityId: string | null;
  productType: number;
  productScope: number;
}

/** Properties of a template; the key is read-only once the template exists (spec 5). */
export function PropertiesPanel({
  properties,
  onChange,
  keyReadOnly,
}: {
  properties: TemplateProperties & Partial<EmailTemplateCreateInput>;
  onChange: (next: TemplateProperties) => void;
  keyReadOnly: boolean;
}) {
  const { t } = useTranslation();
  const tenants = useTenantChoicesQuery();
  const entities = useEntityChoicesQuery(properties.tenantId);
  const set = (patch: Partial<TemplateProperties>) => onChange({ ...properties, ...patch });
  const none = { value: '', label: t('emailTemplates.editor.none') };
  return (
    <Section title={t('emailTemplates.editor.properties')}>
      <div className="grid gap-4 md:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="template-key">{t('emailTemplates.editor.templateKey')}</Label>
          <Input
            id="template-key"
            value={properties.templateKey}
            maxLength={TEMPLATE_KEY_MAX_LENGTH}
            readOnly={keyReadOnly}
            aria-describedby={keyReadOnly ? 'template-key-hint' : undefined}
            onChange={(event) => set({ templateKey: event.target.value })}
          />
          {keyReadOnly && (
            <p id="template-key-hint" className="text-muted-foreground text-xs">
              {t('emailTemplates.editor.templateKeyHint')}
            </p>
          )}
        </div>
        <SelectControl
          id="template-tenant"
          label={t('emailTemplates.editor.tenant')}
          value={properties.tenantId === null ? '' : String(properties.tenantId)}
          options={[
            { value: '', label: t('emailTemplates.instanceLevel') },
            ...(tenants.data ?? []).map((tenant) => ({
              value: String(tenant.id),
              label: `${tenant.companyName} (${tenant.domicileCountryName})`,
            })),
          ]}
          onChange={(value) => set({ tenantId: value ? Number(value) : null, partyEntityId: null })}
        />
        <SelectControl
          id="template-entity"
          label={t('emailTemplates.editor.entity')}
          value={properties.partyEntityId ?? ''}
          disabled={properties.tenantId === null}
          options={[
            none,
            ...(entities.data?.data ?? []).map((entity) => ({
              value: entity.partyEntityId,
              label: entityDisplayName(entity),
            })),
            // The saved entity stays selectable before the list has loaded.
            ...(properties.partyEntityId &&
            !entities.data?.data.some((e) => e.partyEntityId === properties.partyEntityId)
              ? [{ value: properties.partyEntityId, label: properties.partyEntityId }]
              : []),
          ]}
          onChange={(value) => set({ partyEntityId: value || null })}
        />
        <SelectControl
          id="template-product-type"
          label={t('emailTemplates.editor.productType')}
          value={String(properties.productType)}
          options={Object.entries(PRODUCT_TYPES).map(([value, label]) => ({ value, label }))}
          onChange={(value) => set({ productType: Number(value) })}
        />
        <SelectControl
          id="template-product-scope"
          label={t('emailTemplates.editor.productScope')}
          value={String(properties.productScope)}
          options={Object.entries(PRODUCT_SCOPES).map(([value, label]) => ({ value, label }))}
          onChange={(value) => set({ productScope: Number(value) })}
        />
      </div>
      {tenants.isError && (
        <ApiErrorAlert error={tenants.error} fallback={t('emailTemplates.errors.tenantsFailed')} />
      )}
      {entities.isError && (
        <ApiErrorAlert
          error={entities.error}
          fallback={t('emailTemplates.errors.entitiesFailed')}
        />
      )}
    </Section>
  );
}
