/**
 * The calls of the form-test dialog (spec part 2, section 7, "Forms service"): the HTML of one
 * field group of a form, and the test submission. Both need the bearer token (spec part 2,
 * section 5): without one the call is not made.
 */
import {
  apiPath,
  type DataObject,
  formsApi,
  formSubmitResultSchema,
  type FormSubmitResult,
} from '@console/contracts';
import { api, requireAccessToken } from '@/lib/api-client';
import { formsQueryKeys } from './api';

export const formTestQueryKeys = {
  /** Under the forms' key: a change of a form reloads its groups. */
  fieldGroup: (name: string, group: string) =>
    [...formsQueryKeys.all, 'fieldGroup', name, group] as const,
};

/** GET /svc/formauthoring/{name}/fieldgroup/{group}: the group's HTML. */
export async function fetchFormFieldGroup(
  name: string,
  group: string,
  signal?: AbortSignal,
): Promise<string> {
  requireAccessToken();
  return api.getText(apiPath(formsApi.fieldGroup, { name, group }), { signal });
}

/** POST /svc/formauthoring/{name}/submit with `{DataObject}`: the server's validation. */
export async function submitTestForm(name: string, values: DataObject): Promise<FormSubmitResult> {
  requireAccessToken();
  return formSubmitResultSchema.parse(
    await api.post<unknown>(apiPath(formsApi.submit, { nameOrId: name }), { DataObject: values }),
  );
}
