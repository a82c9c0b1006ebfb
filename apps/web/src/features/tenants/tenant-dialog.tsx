/**
 * The add and edit tenant dialog (spec part 1, sections 2 and 5): company name, domicile country
 * (from api/countries) and namespaces. Saving with the company name or the country missing shows
 * the alert 'Please fill in all required fields.'; a refusal of the server (400, 409) is shown in
 * the dialog, which stays open with everything typed.
 */
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { tenantWriteSchema, type Tenant, type TenantWrite } from '@console/contracts';
import {
  DialogForm,
  FormDialog,
  FormField,
  SelectField,
  optionsByLabel,
  type FormDialogProps,
} from '@/components/form';
import { apiErrorMessage } from '@/lib/api-client';
import { useCountriesQuery } from '@/features/countries/api';
import { useSaveTenantMutation } from './api';
import { NamespacesField } from './namespaces-editor';
import { RequiredFieldsAlert, withoutRequiredFieldsMessage } from './required-fields';
import {
  emptyTenantValues,
  tenantFormResolver,
  tenantFormValues,
  type TenantFormValues,
} from './tenant-form';

export interface TenantDialogProps extends Pick<FormDialogProps, 'open' | 'onOpenChange'> {
  /** The tenant to edit; none to add one. */
  tenant: Tenant | null;
}

export function TenantDialog({ open, onOpenChange, tenant }: TenantDialogProps) {
  const { t } = useTranslation();
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={tenant ? t('tenants.dialog.editTitle') : t('tenants.dialog.addTitle')}
      description={
        tenant
          ? t('tenants.dialog.editDescription', { name: tenant.companyName })
          : t('tenants.dialog.addDescription')
      }
      className="max-h-[90vh] overflow-y-auto sm:max-w-xl"
    >
      {/* Mounted afresh for each opening, with the values of the row being edited. */}
      <TenantForm key={tenant?.id ?? 'new'} tenant={tenant} />
    </FormDialog>
  );
}

function TenantForm({ tenant }: { tenant: Tenant | null }) {
  const { t } = useTranslation();
  const countries = useCountriesQuery();
  const save = useSaveTenantMutation(tenant?.id);
  const form = useForm<TenantFormValues, unknown, TenantWrite>({
    resolver: tenantFormResolver,
    defaultValues: tenant ? tenantFormValues(tenant) : emptyTenantValues,
  });
  const countryOptions = optionsByLabel(countries.data, (country) => ({
    value: String(country.id),
    label: country.countryName,
  }));

  const onSubmit = async (body: TenantWrite) => {
    const saved = await save.mutateAsync(body);
    toast.success(
      tenant
        ? t('tenants.updated', { name: saved.companyName })
        : t('tenants.created', { name: saved.companyName }),
    );
  };

  return (
    <DialogForm
      form={form}
      schema={tenantWriteSchema}
      onSubmit={onSubmit}
      submitText={t('tenants.dialog.save')}
      pendingText={t('tenants.dialog.saving')}
      cancelText={t('tenants.dialog.cancel')}
    >
      <RequiredFieldsAlert />
      <FormField<TenantFormValues>
        name="companyName"
        label={t('tenants.dialog.companyName')}
        required
        messageOf={withoutRequiredFieldsMessage}
        autoComplete="organization"
      />
      <SelectField<TenantFormValues>
        name="domicileCountryId"
        label={t('tenants.dialog.domicileCountry')}
        required
        messageOf={withoutRequiredFieldsMessage}
        placeholder={
          countries.isPending
            ? t('tenants.dialog.countriesLoading')
            : t('tenants.dialog.countryPlaceholder')
        }
        // An edited tenant's country shows even before the list has loaded.
        options={
          countryOptions.length === 0 && tenant
            ? [{ value: String(tenant.domicileCountryId), label: tenant.domicileCountryName }]
            : countryOptions
        }
        loadError={countries.isError ? apiErrorMessage(countries.error) : undefined}
      />
      <NamespacesField
        hint={tenant ? t('tenants.dialog.namespacesEditHint') : t('tenants.dialog.namespacesHint')}
      />
    </DialogForm>
  );
}
