export { CheckboxField, type CheckboxFieldProps } from './checkbox-field';
export { ChipsInput, type ChipsAddition, type ChipsInputProps } from './chips-input';
export { contractResolver, type FormProblem } from './contract-resolver';
export {
  DialogForm,
  DialogFormButtons,
  FormDialog,
  useFormDialog,
  type DialogFormProps,
  type FormDialogProps,
  type FormDialogState,
} from './form-dialog';
export { FormField, type FormControlProps, type FormFieldProps } from './form-field';
export { KeyValueEditor, type KeyValueEditorProps } from './key-value-editor';
export {
  ApiReferencesField,
  TagsField,
  isNewName,
  type ApiReferencesFieldProps,
  type TagsFieldProps,
} from './name-editors';
export {
  apiReferenceMap,
  apiReferenceProblems,
  apiReferenceRows,
  type ApiReferenceProblem,
  type ApiReferenceRow,
} from './api-references';
export {
  SelectField,
  optionsByLabel,
  type SelectFieldProps,
  type SelectOption,
} from './select-field';
