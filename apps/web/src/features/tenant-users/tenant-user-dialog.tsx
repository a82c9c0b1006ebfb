/**
 * The add tenant user dialog (spec part 1, sections 2 and 5): an email and the tenant it belongs
 * to. Saving with either missing shows the alert 'Please fill in all required fields.'; the
 * rules are the contract's (`tenantUserCreateSchema`), and a refusal of the server (e.g. 409, the
 * email is already registered) is shown in the dialog, which stays open.
 */
import { useId, useMemo, useState } from 'react';
import { Controller, useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { CircleAlertIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  REQUIRED_FIELDS_MESSAGE,
  tenantUserCreateSchema,
  type TenantUserCreate,
} from '@console/contracts';
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
import { useTenantsQuery } from '@/features/tenants/api';
import { useCreateTenantUserMutation } from './api';

/** What the inputs hold: the tenant as the select's value ('' when none is chosen). */
export interface TenantUserFormValues {
  email: string;
  tenantId: string;
}

const emptyValues: TenantUserFormValues = { email: '', tenantId: '' };

/** react-hook-form's resolver: the contract's schema, each problem under its field. */
export const tenantUserFormResolver: Resolver<TenantUserFormValues, unknown, TenantUserCreate> = (
  values,
) => {
  const result = tenantUserCreateSchema.safeParse({
    email: values.email,
    tenantId: values.tenantId === '' ? null : Number(values.tenantId),
  });
  if (result.success) return { values: result.data, errors: {} };
  const errors: FieldErrors<TenantUserFormValues> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (field === 'email' || field === 'tenantId') {
      errors[field] ??= { type: 'validate', message: issue.message };
    }
  }
  return { values: {}, errors };
};

export function TenantUserDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!saving) onOpenChange(next);
      }}
    >
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{t('tenantUsers.dialog.title')}</DialogTitle>
          <DialogDescription>{t('tenantUsers.dialog.description')}</DialogDescription>
        </DialogHeader>
        <TenantUserForm onSavingChange={setSaving} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function TenantUserForm({
  onSavingChange,
  onDone,
}: {
  onSavingChange: (saving: boolean) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const emailId = useId();
  const tenantId = useId();
  const tenants = useTenantsQuery();
  const create = useCreateTenantUserMutation();
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitted },
  } = useForm<TenantUserFormValues, unknown, TenantUserCreate>({
    resolver: tenantUserFormResolver,
    defaultValues: emptyValues,
  });

  const tenantOptions = useMemo(
    () =>
      [...(tenants.data ?? [])].sort((a, b) =>
        a.companyName.localeCompare(b.companyName, 'en', { sensitivity: 'base' }),
      ),
    [tenants.data],
  );

  const onSubmit = handleSubmit(async (body) => {
    onSavingChange(true);
    try {
      const saved = await create.mutateAsync(body);
      toast.success(t('tenantUsers.created', { email: saved.email }));
      onDone();
    } catch {
      // Shown in the dialog (create.error); the values stay as typed.
    } finally {
      onSavingChange(false);
    }
  });

  const missing =
    isSubmitted &&
    Object.values(errors).some((error) => error?.message === REQUIRED_FIELDS_MESSAGE);
  const emailMessage =
    errors.email?.message !== REQUIRED_FIELDS_MESSAGE ? errors.email?.message : undefined;

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      {missing && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription>{REQUIRED_FIELDS_MESSAGE}</AlertDescription>
        </Alert>
      )}

      <div className="grid gap-1.5">
        <Label htmlFor={emailId}>{t('tenantUsers.dialog.email')}</Label>
        <Input
          id={emailId}
          type="email"
          autoComplete="off"
          spellCheck={false}
          aria-required="true"
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={emailMessage ? `${emailId}-message` : undefined}
          {...register('email')}
        />
        {emailMessage && (
          <p id={`${emailId}-message`} className="text-destructive text-sm">
            {emailMessage}
          </p>
        )}
      </div>

      <div className="grid gap-1.5">
        <Label htmlFor={tenantId}>{t('tenantUsers.dialog.tenant')}</Label>
        <Controller
          control={control}
          name="tenantId"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange} name={field.name}>
              <SelectTrigger
                id={tenantId}
                ref={field.ref}
                className="w-full"
                aria-required="true"
                aria-invalid={errors.tenantId ? true : undefined}
              >
                <SelectValue
                  placeholder={
                    tenants.isPending
                      ? t('tenantUsers.dialog.tenantsLoading')
                      : t('tenantUsers.dialog.tenantPlaceholder')
                  }
                />
              </SelectTrigger>
              <SelectContent className="max-h-72">
                {tenantOptions.map((tenant) => (
                  <SelectItem key={tenant.id} value={String(tenant.id)}>
                    {tenant.companyName}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
        {tenants.isError && (
          <p className="text-destructive text-sm">{apiErrorMessage(tenants.error)}</p>
        )}
      </div>

      {create.isError && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription>{apiErrorMessage(create.error)}</AlertDescription>
        </Alert>
      )}

      <DialogFooter>
        <Button type="button" variant="outline" disabled={create.isPending} onClick={onDone}>
          {t('tenantUsers.dialog.cancel')}
        </Button>
        <Button type="submit" disabled={create.isPending} aria-busy={create.isPending || undefined}>
          {create.isPending ? t('tenantUsers.dialog.saving') : t('tenantUsers.dialog.save')}
        </Button>
      </DialogFooter>
    </form>
  );
}
