/**
 * The rest of a field's basic information: the storage name it is an alias for, how it prints,
 * and which roles may see and change it (an empty list means everyone: our reading of
 * viewPermissions / editPermissions, which the spec does not explain).
 */
import { useId } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FIELD_PERMISSION_ROLES, type FieldPermissionRole } from '@console/contracts';
import { CheckboxField, FormField } from '@/components/form';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { useFieldCatalogue } from './catalogue';
import type { FieldFormValues } from './field-form';

export function PrintAndPermissionsFields({ currentId }: { currentId: number | undefined }) {
  const { t } = useTranslation();
  const namesId = useId();
  const { storageNames } = useFieldCatalogue(currentId);
  return (
    <div className="grid items-start gap-3 sm:grid-cols-2">
      <FormField<FieldFormValues>
        name="aliasFor"
        label={t('formFields.dialog.aliasFor')}
        description={t('formFields.dialog.aliasForHint')}
        list={namesId}
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
      />
      <datalist id={namesId}>
        {storageNames?.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <FormField<FieldFormValues> name="printLabel" label={t('formFields.dialog.printLabel')} />
      <FormField<FieldFormValues>
        name="printSequence"
        label={t('formFields.dialog.printSequence')}
        type="number"
        inputMode="numeric"
        step={1}
      />
      <div className="pt-7">
        <CheckboxField<FieldFormValues> name="print" label={t('formFields.dialog.print')} />
      </div>
      <RolesField name="viewPermissions" legend={t('formFields.dialog.viewPermissions')} />
      <RolesField name="editPermissions" legend={t('formFields.dialog.editPermissions')} />
    </div>
  );
}

/** A checkbox per role; none checked means every role. */
function RolesField({
  name,
  legend,
}: {
  name: 'viewPermissions' | 'editPermissions';
  legend: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const {
    field: { value, onChange },
  } = useController<FieldFormValues, typeof name>({ name });
  const toggle = (role: FieldPermissionRole, checked: boolean) =>
    onChange(FIELD_PERMISSION_ROLES.filter((r) => (r === role ? checked : value.includes(r))));
  return (
    <fieldset className="grid gap-2" aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-4">
        {FIELD_PERMISSION_ROLES.map((role) => (
          <div key={role} className="flex items-center gap-2">
            <Checkbox
              id={`${id}-${role}`}
              checked={value.includes(role)}
              onCheckedChange={(checked) => toggle(role, checked === true)}
            />
            <Label htmlFor={`${id}-${role}`}>{t(`formFields.dialog.roles.${role}`)}</Label>
          </div>
        ))}
      </div>
      <p id={`${id}-hint`} className="text-muted-foreground text-xs">
        {t('formFields.dialog.permissionsHint')}
      </p>
    </fieldset>
  );
}
