export {
  DynamicForm,
  FORM_SETUP_EVENT,
  FORM_SETUP_THROTTLE_MS,
  type CurrentFile,
  type DynamicFormGroup,
  type DynamicFormHandle,
  type DynamicFormProps,
} from './dynamic-form';
export {
  DynamicDialogForm,
  DynamicDialogMessage,
  loadingOrFailure,
  type DynamicDialogFormProps,
  type SubmitOutcome,
} from './dynamic-dialog-form';
export type {
  CollectedForm,
  FieldErrors,
  FormChoice,
  FormSetupDetail,
  InputValues,
} from './form-dom';
export { sanitizeFormHtml } from './sanitize';
export { serverMessageOf, validationProblemOf } from './submission';
export { useFieldGroups, type FieldGroups, type FieldGroupsSource } from './use-field-groups';
