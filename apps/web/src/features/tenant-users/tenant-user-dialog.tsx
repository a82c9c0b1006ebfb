/**
 * The add tenant user dialog (spec part 1, sections 2 and 5): an email and the tenant it belongs
 * to. Saving with either missing shows the alert 'Please fill in all required fields.'; the
 * rules are the contract's (`tenantUserCreateSchema`), and a refusal of the server (e.g. 409, the
 * email is already registered) is shown in the dialog, which stays open.
 */
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { tenantUserCreateSchema, type TenantUserCreate } from '@console/contracts';
import {
  DialogForm,
  FormDialog,
  FormField,
  SelectField,
  contractResolver,
  optionsByLabel,
  type FormDialogProps,
} from '@/components/form';
import { apiErrorMessage } from '@/lib/api-client';
import { useTenantsQuery } from '@/features/tenants/api';
import {
  RequiredFieldsAlert,
  withoutRequiredFieldsMessage,
} from '@/features/tenants/required-fields';
import { useCreateTenantUserMutation } from './api';

/** What the inputs hold: the tenant as the select's value ('' when none is chosen). */
export interface TenantUserFormValues {
  email: string;
  tenantId: string;
}

const emptyValues: TenantUserFormValues = { email: '', tenantId: '' };

/** react-hook-form's resolver: the contract's schema, each problem under its field. */
const tenantUserFormResolver = contractResolver(
  tenantUserCreateSchema,
  (values: TenantUserFormValues) => ({
    email: values.email,
    tenantId: values.tenantId === '' ? null : Number(values.tenantId),
  }),
);

export function TenantUserDialog({
  open,
  onOpenChange,
}: Pick<FormDialogProps, 'open' | 'onOpenChange'>) {
  const { t } = useTranslation();
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('tenantUsers.dialog.title')}
      description={t('tenantUsers.dialog.description')}
      className="sm:max-w-lg"
    >
      <TenantUserForm />
    </FormDialog>
  );
}

function TenantUserForm() {
  const { t } = useTranslation();
  const tenants = useTenantsQuery();
  const create = useCreateTenantUserMutation();
  const form = useForm<TenantUserFormValues, unknown, TenantUserCreate>({
    resolver: tenantUserFormResolver,
    defaultValues: emptyValues,
  });

  const onSubmit = async (body: TenantUserCreate) => {
    const saved = await create.mutateAsync(body);
    toast.success(t('tenantUsers.created', { email: saved.email }));
  };

  return (
    <DialogForm
      form={form}
      schema={tenantUserCreateSchema}
      onSubmit={onSubmit}
      submitText={t('tenantUsers.dialog.save')}
      pendingText={t('tenantUsers.dialog.saving')}
      cancelText={t('tenantUsers.dialog.cancel')}
    >
      <RequiredFieldsAlert />
      <FormField<TenantUserFormValues>
        name="email"
        label={t('tenantUsers.dialog.email')}
        required
        messageOf={withoutRequiredFieldsMessage}
        type="email"
        autoComplete="off"
        spellCheck={false}
      />
      <SelectField<TenantUserFormValues>
        name="tenantId"
        label={t('tenantUsers.dialog.tenant')}
        required
        messageOf={withoutRequiredFieldsMessage}
        placeholder={
          tenants.isPending
            ? t('tenantUsers.dialog.tenantsLoading')
            : t('tenantUsers.dialog.tenantPlaceholder')
        }
        options={optionsByLabel(tenants.data, (tenant) => ({
          value: String(tenant.id),
          label: tenant.companyName,
        }))}
        loadError={tenants.isError ? apiErrorMessage(tenants.error) : undefined}
      />
    </DialogForm>
  );
}
