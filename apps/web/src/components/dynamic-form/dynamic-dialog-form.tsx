/**
 * A server-rendered form inside a `FormDialog`: the warnings about loading it, the form
 * (`DynamicForm`), the outcome of the last submission and Cancel/Submit with the pending state
 * (both disabled, the dialog not closable, while it is sent). What submitting does and says is
 * the dialog's: `onSubmit` gets the collected values and answers the outcome to show.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { CircleAlertIcon, CircleCheckIcon, TriangleAlertIcon } from 'lucide-react';
import { DialogFormButtons, useFormDialog } from '@/components/form';
import { ApiErrorAlert } from '@/components/api-error-alert';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { apiErrorMessage } from '@/lib/api-client';
import { DynamicForm, type DynamicFormHandle, type DynamicFormProps } from './dynamic-form';
import type { CollectedForm, FieldErrors } from './form-dom';

/** What a submission came to. */
export type SubmitOutcome =
  /** Saved: the dialog closes. */
  | { kind: 'done' }
  /** Accepted, and the dialog stays open saying so (the form-test dialog). */
  | { kind: 'success'; message: string }
  /** Refused: the message, and the messages of each field (marked on the form). */
  | { kind: 'failure'; message: string; errors?: FieldErrors | null };

export interface DynamicDialogFormProps extends Omit<DynamicFormProps, 'errors' | 'ref'> {
  /** What went wrong loading the form (failed groups, unresolved field references). */
  warnings?: readonly string[];
  onSubmit: (form: CollectedForm) => Promise<SubmitOutcome>;
  submitText: string;
  pendingText: string;
  cancelText: string;
  /** Submit is enabled (when not sending). */
  canSubmit?: boolean;
}

export function DynamicDialogForm({
  warnings = [],
  onSubmit,
  submitText,
  pendingText,
  cancelText,
  canSubmit = true,
  ...formProps
}: DynamicDialogFormProps) {
  const { pending, setPending, close } = useFormDialog();
  const formRef = useRef<DynamicFormHandle>(null);
  const [outcome, setOutcome] = useState<SubmitOutcome | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending || !formRef.current) return;
    const collected = formRef.current.collect();
    setOutcome(null);
    setPending(true);
    let result: SubmitOutcome;
    try {
      result = await onSubmit(collected);
    } catch (error) {
      result = { kind: 'failure', message: apiErrorMessage(error) };
    } finally {
      setPending(false);
    }
    if (result.kind === 'done') close();
    else setOutcome(result);
  };

  const errors = outcome?.kind === 'failure' ? (outcome.errors ?? null) : null;
  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="grid min-w-0 gap-4">
      {warnings.map((warning) => (
        <Alert key={warning}>
          <TriangleAlertIcon aria-hidden="true" />
          <AlertDescription>{warning}</AlertDescription>
        </Alert>
      ))}
      <DynamicForm ref={formRef} errors={errors} {...formProps} />
      {outcome?.kind === 'success' && (
        <Alert role="status">
          <CircleCheckIcon aria-hidden="true" />
          <AlertDescription>{outcome.message}</AlertDescription>
        </Alert>
      )}
      {outcome?.kind === 'failure' && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription>
            <p className="font-medium">{outcome.message}</p>
            {errors && <FieldMessages errors={errors} />}
          </AlertDescription>
        </Alert>
      )}
      <DialogFormButtons
        canSubmit={canSubmit}
        submitText={submitText}
        pendingText={pendingText}
        cancelText={cancelText}
      />
    </form>
  );
}

/** Each refused field's label with the list of its messages. */
function FieldMessages({ errors }: { errors: FieldErrors }) {
  return (
    <ul className="list-disc pl-4">
      {Object.entries(errors).map(([label, messages]) => (
        <li key={label}>
          <span className="font-medium">{label}</span>
          <ul className="list-[circle] pl-4">
            {messages.map((message, index) => (
              <li key={index}>{message}</li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

/** What a dynamic dialog needs loaded first (the form's definition, the profile). */
interface Loading {
  isPending: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/**
 * What the dialog shows while what it needs loads (`loadingText`), or when that failed (the
 * error, Retry and Close); null once it is there.
 */
export function loadingOrFailure(
  query: Loading,
  { loadingText, closeText }: { loadingText: string; closeText: string },
): ReactNode | null {
  if (query.error) {
    return (
      <DynamicDialogMessage closeText={closeText}>
        <ApiErrorAlert
          error={query.error}
          fallback={query.error.message}
          onRetry={() => void query.refetch()}
        />
      </DynamicDialogMessage>
    );
  }
  if (query.isPending) {
    return (
      <p role="status" className="text-muted-foreground text-sm">
        {loadingText}
      </p>
    );
  }
  return null;
}

/** What the dialog shows instead of the form (it is loading, failed or missing): Close only. */
export function DynamicDialogMessage({
  closeText,
  children,
}: {
  closeText: string;
  children: ReactNode;
}) {
  const { close } = useFormDialog();
  return (
    <div className="grid gap-4">
      {children}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={close}>
          {closeText}
        </Button>
      </DialogFooter>
    </div>
  );
}
