export { ChipsInput, type ChipsAddition, type ChipsInputProps } from './chips-input';
export { contractResolver } from './contract-resolver';
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
  SelectField,
  optionsByLabel,
  type SelectFieldProps,
  type SelectOption,
} from './select-field';
