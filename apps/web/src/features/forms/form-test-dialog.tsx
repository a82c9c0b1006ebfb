/**
 * Placeholder of the form-test dialog (spec part 2, "Form-test dialog") while the forms screens
 * are built in parallel: the forms list opens it by name. Replaced by the real dialog before
 * the screens land.
 */
export interface FormTestDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The form to render and submit. */
  formName: string | null;
}

export function FormTestDialog(_props: FormTestDialogProps) {
  return null;
}
