/**
 * The values of the tenant dialog and their rules (spec part 1, section 5). The rules are
 * contracts' own (`tenantWriteSchema`, `normalizeNamespaces`), so the dialog refuses exactly what
 * the server would, with the same words: a missing company name or country gives
 * 'Please fill in all required fields.'.
 */
import { normalizeNamespaces, tenantWriteSchema, type Tenant } from '@console/contracts';
import { contractResolver } from '@/components/form';

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
export const tenantFormResolver = contractResolver(tenantWriteSchema, tenantRequestOf);
