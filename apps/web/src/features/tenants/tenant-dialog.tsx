/**
 * The add and edit tenant dialog (spec part 1, sections 2 and 5): company name, domicile country
 * (from api/countries) and namespaces. Saving with the company name or the country missing shows
 * the alert 'Please fill in all required fields.'; a refusal of the server (400, 409) is shown in
 * the dialog, which stays open with everything typed.
 */
import { useId, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { CircleAlertIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { REQUIRED_FIELDS_MESSAGE, type Tenant, type TenantWrite } from '@console/contracts';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { apiErrorMessage } from '@/lib/api-client';
import { useCountriesQuery } from '@/features/countries/api';
import { useSaveTenantMutation } from './api';
import { NamespacesEditor } from './namespaces-editor';
import {
  emptyTenantValues,
  missesRequiredFields,
  tenantFormResolver,
  tenantFormValues,
  type TenantFormValues,
} from './tenant-form';

export interface TenantDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The tenant to edit; none to add one. */
  tenant: Tenant | null;
}

export function TenantDialog({ open, onOpenChange, tenant }: TenantDialogProps) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!saving) onOpenChange(next);
      }}
    >
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>
            {tenant ? t('tenants.dialog.editTitle') : t('tenants.dialog.addTitle')}
          </DialogTitle>
          <DialogDescription>
            {tenant
              ? t('tenants.dialog.editDescription', { name: tenant.companyName })
              : t('tenants.dialog.addDescription')}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted afresh for each opening, with the values of the row being edited. */}
        <TenantForm
          key={tenant?.id ?? 'new'}
          tenant={tenant}
          onSavingChange={setSaving}
          onDone={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

function TenantForm({
  tenant,
  onSavingChange,
  onDone,
}: {
  tenant: Tenant | null;
  onSavingChange: (saving: boolean) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const nameId = useId();
  const countryId = useId();
  const countries = useCountriesQuery();
  const save = useSaveTenantMutation(tenant?.id);
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitted },
  } = useForm<TenantFormValues, unknown, TenantWrite>({
    resolver: tenantFormResolver,
    defaultValues: tenant ? tenantFormValues(tenant) : emptyTenantValues,
  });

  const countryOptions = useMemo(
    () =>
      [...(countries.data ?? [])].sort((a, b) =>
        a.countryName.localeCompare(b.countryName, 'en', { sensitivity: 'base' }),
      ),
    [countries.data],
  );

  const onSubmit = handleSubmit(async (body) => {
    onSavingChange(true);
    try {
      const saved = await save.mutateAsync(body);
      toast.success(
        tenant
          ? t('tenants.updated', { name: saved.companyName })
          : t('tenants.created', { name: saved.companyName }),
      );
      onDone();
    } catch {
      // Shown in the dialog (save.error); the values stay as typed.
    } finally {
      onSavingChange(false);
    }
  });

  const missing = isSubmitted && missesRequiredFields(errors);
  const fieldMessage = (message: string | undefined) =>
    message && message !== REQUIRED_FIELDS_MESSAGE ? message : undefined;
  const nameMessage = fieldMessage(errors.companyName?.message);
  const countryMessage = fieldMessage(errors.domicileCountryId?.message);

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      {missing && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription>{REQUIRED_FIELDS_MESSAGE}</AlertDescription>
        </Alert>
      )}

      <div className="grid gap-1.5">
        <Label htmlFor={nameId}>{t('tenants.dialog.companyName')}</Label>
        <Input
          id={nameId}
          autoComplete="organization"
          aria-required="true"
          aria-invalid={errors.companyName ? true : undefined}
          aria-describedby={nameMessage ? `${nameId}-message` : undefined}
          {...register('companyName')}
        />
        {nameMessage && (
          <p id={`${nameId}-message`} className="text-destructive text-sm">
            {nameMessage}
          </p>
        )}
      </div>

      <div className="grid gap-1.5">
        <Label htmlFor={countryId}>{t('tenants.dialog.domicileCountry')}</Label>
        <Controller
          control={control}
          name="domicileCountryId"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange} name={field.name}>
              <SelectTrigger
                id={countryId}
                ref={field.ref}
                className="w-full"
                aria-required="true"
                aria-invalid={errors.domicileCountryId ? true : undefined}
                aria-describedby={countryMessage ? `${countryId}-message` : undefined}
              >
                <SelectValue
                  placeholder={
                    countries.isPending
                      ? t('tenants.dialog.countriesLoading')
                      : t('tenants.dialog.countryPlaceholder')
                  }
                />
              </SelectTrigger>
              <SelectContent className="max-h-72">
                {/* An edited tenant's country shows even before the list has loaded. */}
                {countryOptions.length === 0 && tenant && (
                  <SelectItem value={String(tenant.domicileCountryId)}>
                    {tenant.domicileCountryName}
                  </SelectItem>
                )}
                {countryOptions.map((country) => (
                  <SelectItem key={country.id} value={String(country.id)}>
                    {country.countryName}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
        {countries.isError && (
          <p className="text-destructive text-sm">{apiErrorMessage(countries.error)}</p>
        )}
        {countryMessage && (
          <p id={`${countryId}-message`} className="text-destructive text-sm">
            {countryMessage}
          </p>
        )}
      </div>

      <Controller
        control={control}
        name="namespaces"
        render={({ field }) => (
          <Controller
            control={control}
            name="namespaceDraft"
            render={({ field: draft }) => (
              <NamespacesEditor
                value={field.value}
                onChange={field.onChange}
                draft={draft.value}
                onDraftChange={draft.onChange}
                hint={
                  tenant
                    ? t('tenants.dialog.namespacesEditHint')
                    : t('tenants.dialog.namespacesHint')
                }
                message={errors.namespaces?.message}
              />
            )}
          />
        )}
      />

      {save.isError && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription>{apiErrorMessage(save.error)}</AlertDescription>
        </Alert>
      )}

      <DialogFooter>
        <Button type="button" variant="outline" disabled={save.isPending} onClick={onDone}>
          {t('tenants.dialog.cancel')}
        </Button>
        <Button type="submit" disabled={save.isPending} aria-busy={save.isPending || undefined}>
          {save.isPending ? t('tenants.dialog.saving') : t('tenants.dialog.save')}
        </Button>
      </DialogFooter>
    </form>
  );
}
