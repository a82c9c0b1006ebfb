/**
 * A dialog that edits one thing: `FormDialog` is the dialog (title, description, no closing while
 * saving) and `DialogForm` the form inside it (fields, the server's refusal, Cancel and Save with
 * their pending state). The form lives in a component of its own under `FormDialog`, so that it
 * is made afresh, with the values of the row, each time the dialog opens.
 *
 * Saving calls `onSubmit` with the valid values; when it resolves the dialog closes, when it
 * fails the dialog stays open with everything typed: a 400 whose problems all name fields shows
 * each under its field, a 409 shows under `conflictField` when the dialog names one (a name that
 * is taken), anything else shows the server's message above the buttons.
 */
import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  FormProvider,
  type FieldPath,
  type FieldValues,
  type UseFormReturn,
} from 'react-hook-form';
import { CircleAlertIcon } from 'lucide-react';
import type { z } from 'zod';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { ApiError, apiErrorMessage } from '@/lib/api-client';
import { FormSchemaContext } from './form-schema';
import { serverFieldErrors } from './server-errors';

export interface FormDialogState {
  pending: boolean;
  setPending: (pending: boolean) => void;
  close: () => void;
}

const FormDialogContext = createContext<FormDialogState | null>(null);

/**
 * The state of the `FormDialog` around a form: its pending flag (no closing while saving) and a
 * way to close it. `DialogForm` uses it; a form that is not a react-hook-form one (the dynamic
 * forms) uses it directly.
 */
export function useFormDialog(): FormDialogState {
  const state = useContext(FormDialogContext);
  if (!state) throw new Error('DialogForm is used outside a FormDialog');
  return state;
}

export interface FormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  /** The width (and scrolling) of the dialog's content. */
  className?: string;
  children: ReactNode;
}

export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  className,
  children,
}: FormDialogProps) {
  const [pending, setPending] = useState(false);
  // The element that had the focus when the dialog opened (a row's button): it gets it back on
  // closing, for a dialog opened from a list has no Radix trigger to return to.
  const opener = useRef<HTMLElement | null>(null);
  const state = useMemo(
    () => ({ pending, setPending, close: () => onOpenChange(false) }),
    [pending, onOpenChange],
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!pending) onOpenChange(next);
      }}
    >
      <DialogContent
        className={className}
        onOpenAutoFocus={() => {
          opener.current =
            document.activeElement instanceof HTMLElement ? document.activeElement : null;
        }}
        onCloseAutoFocus={(event) => {
          if (!opener.current?.isConnected) return;
          event.preventDefault();
          opener.current.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <FormDialogContext value={state}>{children}</FormDialogContext>
      </DialogContent>
    </Dialog>
  );
}

export interface DialogFormProps<TValues extends FieldValues, TOutput> {
  form: UseFormReturn<TValues, unknown, TOutput>;
  /** The contract's schema of the request: each field reads its limits (max length) from it. */
  schema?: z.ZodType;
  /** Sends the valid values; the dialog closes when it resolves. */
  onSubmit: (values: TOutput) => Promise<void>;
  submitText: string;
  pendingText: string;
  cancelText: string;
  /** Save is enabled (when not saving); the dialog's own rule, if it has one. */
  canSubmit?: boolean;
  /** What a failure says above the buttons; by default the server's message. */
  failureMessage?: (error: unknown) => ReactNode;
  /** Fields of the server's paths where the request is shaped unlike the form ('a.b': 'b'). */
  serverFields?: Readonly<Record<string, FieldPath<TValues>>>;
  /** The field a 409 (conflict) answer is about, e.g. a name that must be unique. */
  conflictField?: FieldPath<TValues>;
  children: ReactNode;
}

export function DialogForm<TValues extends FieldValues, TOutput>({
  form,
  schema,
  onSubmit,
  submitText,
  pendingText,
  cancelText,
  canSubmit = true,
  failureMessage = apiErrorMessage,
  serverFields,
  conflictField,
  children,
}: DialogFormProps<TValues, TOutput>) {
  const { setPending, close } = useFormDialog();
  const [failure, setFailure] = useState<unknown>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    setPending(true);
    try {
      await onSubmit(values);
      close();
    } catch (error) {
      const placed =
        conflictField !== undefined && error instanceof ApiError && error.status === 409
          ? [{ field: conflictField, message: apiErrorMessage(error) }]
          : serverFieldErrors(error, Object.keys(form.getValues()), serverFields);
      if (placed === null) setFailure(error);
      placed?.forEach(({ field, message }, index) =>
        form.setError(
          field as FieldPath<TValues>,
          { type: 'server', message },
          { shouldFocus: index === 0 },
        ),
      );
    } finally {
      setPending(false);
    }
  });

  return (
    <FormProvider {...form}>
      <FormSchemaContext value={schema}>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
          {children}
          {failure !== null && (
            <Alert variant="destructive">
              <CircleAlertIcon aria-hidden="true" />
              <AlertDescription>{failureMessage(failure)}</AlertDescription>
            </Alert>
          )}
          <DialogFormButtons
            canSubmit={canSubmit}
            submitText={submitText}
            pendingText={pendingText}
            cancelText={cancelText}
          />
        </form>
      </FormSchemaContext>
    </FormProvider>
  );
}

/**
 * Cancel and Save (or the dialog's submit text) at the foot of a dialog's form: while it is sent
 * both are disabled and Save says `pendingText`. Cancel closes the dialog.
 */
export function DialogFormButtons({
  canSubmit = true,
  submitText,
  pendingText,
  cancelText,
}: Pick<
  DialogFormProps<FieldValues, unknown>,
  'canSubmit' | 'submitText' | 'pendingText' | 'cancelText'
>) {
  const { pending, close } = useFormDialog();
  return (
    <DialogFooter>
      <Button type="button" variant="outline" disabled={pending} onClick={close}>
        {cancelText}
      </Button>
      <Button type="submit" disabled={!canSubmit || pending} aria-busy={pending || undefined}>
        {pending ? pendingText : submitText}
      </Button>
    </DialogFooter>
  );
}
