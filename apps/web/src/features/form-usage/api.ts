/**
 * The form usage calls (spec part 1, section 7, "Dynamic profile forms") with their query keys:
 * a tenant's or an entity's profile, the HTML of a profile form's field group, the multipart
 * submission and a profile file's download; and the choices of the forms' setup event.
 */
import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPath,
  dataObjectInputName,
  formUsageApi,
  PROFILE_SUBMIT_PARTS,
  profileSchema,
  profileSubmitResultSchema,
  type CountryChoice,
  type DocumentTypeChoice,
  type Profile,
  type ProfileTarget,
} from '@console/contracts';
import type { CollectedForm, FormChoice, FormSetupDetail } from '@/components/dynamic-form';
import { api, getParsed } from '@/lib/api-client';
import { getAuthSession } from '@/lib/auth-session';
import { saveFile } from '@/lib/download';
import i18n, { addNamespaces } from '@/lib/i18n';
import { countryChoicesQueryKey, fetchCountryChoices } from '@/features/countries/api';
import { documentTypesQueryKeys, fetchDocumentTypeChoices } from '@/features/document-types/api';
import { formUsage } from '@/locales/en.json?formUsage&lang.json';

addNamespaces({ formUsage });

/** Whose profile: a tenant (by id) or an entity (by party entity id), and its name. */
export type ProfileSubject =
  | { target: Extract<ProfileTarget, 'Tenant'>; id: number; name: string }
  | { target: Extract<ProfileTarget, 'Entity'>; id: string; name: string };

export const formUsageQueryKeys = {
  /** Every query of this feature: what a profile write makes stale. */
  all: ['formUsage'] as const,
  profile: ({ target, id }: ProfileSubject) =>
    ['formUsage', 'profile', target, String(id)] as const,
  fieldGroup: (form: string, group: string) => ['formUsage', 'fieldGroup', form, group] as const,
};

/**
 * Submitting dynamic forms and loading their fields need a signed-in user (spec part 1,
 * section 6): without one the call is not made.
 */
function requireSignedIn(): void {
  if (!getAuthSession().isAuthenticated) {
    throw new Error(i18n.t('formUsage.userNotAuthenticated'));
  }
}

/** GET svc/formusage/tenant/{id} or entity/{id}: the stored values and the form's groups. */
export async function fetchProfile(
  subject: ProfileSubject,
  signal?: AbortSignal,
): Promise<Profile> {
  requireSignedIn();
  const route =
    subject.target === 'Tenant' ? formUsageApi.tenantProfile : formUsageApi.entityProfile;
  return getParsed(profileSchema, apiPath(route, { id: subject.id }), signal);
}

/**
 * GET /svc/formusage/{group}/fieldgroup: the HTML of one group of the profile form `form`, its
 * inputs editable as the caller's rights allow, with the block for the validation summary.
 */
export async function fetchProfileFieldGroup(
  form: string,
  group: string,
  signal?: AbortSignal,
): Promise<string> {
  requireSignedIn();
  const query = new URLSearchParams({
    form,
    hasEditPermission: 'true',
    showValidationSummary: 'true',
  });
  return api.getText(`${apiPath(formUsageApi.fieldGroup, { group })}?${query}`, { signal });
}

/**
 * POST svc/formusage/submit, multipart: Target, TenantId or EntityId, FormData (JSON of input
 * name to value) and one part per chosen file, named by its input.
 */
export async function submitProfile(subject: ProfileSubject, form: CollectedForm) {
  requireSignedIn();
  const body = new FormData();
  body.append(PROFILE_SUBMIT_PARTS.target, subject.target);
  body.append(
    subject.target === 'Tenant' ? PROFILE_SUBMIT_PARTS.tenantId : PROFILE_SUBMIT_PARTS.entityId,
    String(subject.id),
  );
  const inputs = Object.fromEntries(
    Object.entries(form.DataObject).map(([key, value]) => [dataObjectInputName(key), value]),
  );
  body.append(PROFILE_SUBMIT_PARTS.formData, JSON.stringify(inputs));
  for (const [input, file] of Object.entries(form.files)) body.append(input, file, file.name);
  return profileSubmitResultSchema.parse(
    await api.post<unknown>(apiPath(formUsageApi.submit), body),
  );
}

/** Downloads the file a profile's FileUpload field holds, under its name. */
export async function downloadProfileFile(
  subject: ProfileSubject,
  field: string,
  fileName: string,
): Promise<void> {
  const route = subject.target === 'Tenant' ? formUsageApi.tenantFile : formUsageApi.entityFile;
  saveFile(await api.getBlob(apiPath(route, { id: subject.id, field })), fileName);
}

export function useProfileQuery(subject: ProfileSubject) {
  return useQuery({
    queryKey: formUsageQueryKeys.profile(subject),
    queryFn: ({ signal }) => fetchProfile(subject, signal),
  });
}

/** Saves a profile; its profile (and the rest of this feature's data) reloads afterwards. */
export function useSaveProfileMutation(subject: ProfileSubject) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: CollectedForm) => submitProfile(subject, form),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: formUsageQueryKeys.profile(subject) }),
  });
}

const NO_CHOICES: readonly FormChoice[] = [];

/**
 * The choices of the forms' setup event: countries (id, countryName) and document types (id,
 * displayName), read as choices from the lists of their screens (a tenant user is answered the
 * choices only, for its entities' profiles).
 */
export function useFormChoices(): FormSetupDetail {
  const countries = useQuery({
    queryKey: countryChoicesQueryKey,
    queryFn: ({ signal }) => fetchCountryChoices(signal),
  });
  const documentTypes = useQuery({
    queryKey: documentTypesQueryKeys.choices,
    queryFn: ({ signal }) => fetchDocumentTypeChoices(signal),
  });
  return useMemo(
    () => ({
      countries: countries.data?.map(countryChoice) ?? NO_CHOICES,
      documentTypes: documentTypes.data?.map(documentTypeChoice) ?? NO_CHOICES,
    }),
    [countries.data, documentTypes.data],
  );
}

const countryChoice = (country: CountryChoice): FormChoice => ({
  id: String(country.id),
  displayName: country.countryName,
});

const documentTypeChoice = (documentType: DocumentTypeChoice): FormChoice => ({
  id: documentType.id,
  displayName: documentType.displayName,
});
