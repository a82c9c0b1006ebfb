/**
 * The values of the tenant dialog and their rules (spec part 1, section 5). The rules are
 * contracts' own (`tenantWriteSchema`, `normalizeNamespaces`), so the dialog refuses exactly what
 * the server would, with the same words: a missing company name or country gives
 * 'Please fill in all required fields.'.
 */
import type { FieldErrors, Resolver } from 'react-hook-form';
import {
  REQUIRED_FIELDS_MESSAGE,
  normalizeNamespaces,
  tenantWriteSchema,
  type Tenant,
  type TenantWrite,
} from '@console/contracts';

/** What the inputs hold: the country as the select's value ('' when none is chosen). */
export interface TenantFormValues {
  companyName: string;
  domicileCountryId: string;
  namespaces: string[];
  /** A namespace typed but not added yet: saving adds it rather than dropping it silently. */
  namespaceDraft: string;
}

export const emptyTenantValues: TenantFormValues = {
  companyName: '',
  domicileCountryId: '',
  namespaces: [],
  namespaceDraft: '',
};

export function tenantFormValues(tenant: Tenant): TenantFormValues {
  return {
    companyName: tenant.companyName,
    domicileCountryId: String(tenant.domicileCountryId),
    namespaces: [...tenant.namespaces],
    namespaceDraft: '',
  };
}

/** The body of POST or PUT as typed, before the contract's rules. */
export function tenantRequestOf(values: TenantFormValues) {
  return {
    companyName: values.companyName,
    domicileCountryId: values.domicileCountryId === '' ? null : Number(values.domicileCountryId),
    namespaces: normalizeNamespaces([...values.namespaces, values.namespaceDraft]),
  };
}

/** react-hook-form's resolver: the contract's schema, each problem under its field. */
export const tenantFormResolver: Resolver<TenantFormValues, unknown, TenantWrite> = (values) => {
  const result = tenantWriteSchema.safeParse(tenantRequestOf(values));
  if (result.success) return { values: result.data, errors: {} };
  const errors: FieldErrors<TenantFormValues> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (field === 'companyName' || field === 'domicileCountryId' || field === 'namespaces') {
      errors[field] ??= { type: 'validate', message: issue.message };
    }
  }
  return { values: {}, errors };
};

/** Whether a required field is missing: the dialog shows the spec's alert (spec 5). */
export function missesRequiredFields(errors: FieldErrors<TenantFormValues>): boolean {
  return Object.values(errors).some((error) => error?.message === REQUIRED_FIELDS_MESSAGE);
}
