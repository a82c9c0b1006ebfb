/**
 * The host of a server-rendered form (forms design, "Rendered HTML" and "Setup event"; spec
 * part 2, "Form-test dialog"; part 1, "Dynamic profile forms"): the form-test dialog and the
 * tenant and entity profile dialogs show their field groups through it.
 *
 * Each group's HTML is sanitised (`sanitizeFormHtml`) and injected in place, in the order given;
 * a group still loading shows a placeholder, a group that failed its error. After each injection
 * the host pre-fills the new controls (`values`, by input name) and dispatches the `form-setup`
 * event with the country and document type choices on its container, at most once per 300 ms
 * (leading and trailing, spec part 2, section 9); its own listener fills the choice selects.
 * The server's refusals (`errors`, by label) mark their fields. The parent reads the values
 * through the handle when it submits.
 */
import {
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
  type Ref,
} from 'react';
import { createPortal } from 'react-dom';
import { CircleAlertIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { addNamespaces } from '@/lib/i18n';
import { useThrottled } from '@/lib/throttle';
import { dynamicForm } from '@/locales/en.json?dynamicForm&lang.json';
import {
  collectForm,
  fileFields,
  fillChoices,
  firstInvalidControl,
  prefill,
  showFieldErrors,
  type CollectedForm,
  type FieldErrors,
  type FileField,
  type FormSetupDetail,
  type InputValues,
} from './form-dom';
import { sanitizeFormHtml } from './sanitize';
import './dynamic-form.css';

addNamespaces({ dynamicForm });

/** The event the host dispatches on its container after injecting HTML (forms design). */
export const FORM_SETUP_EVENT = 'form-setup';
/** At most one setup event per this many milliseconds (spec part 2, section 9). */
export const FORM_SETUP_THROTTLE_MS = 300;

/** One field group of the form, in the order shown. */
export interface DynamicFormGroup {
  name: string;
  /** The group's HTML as the server rendered it; absent while it loads (or when it failed). */
  html?: string;
  /** Why the group could not be loaded: shown in its place. */
  error?: string;
}

export interface DynamicFormHandle {
  /** The values to submit (`{DataObject}`) and the chosen files. */
  collect: () => CollectedForm;
}

/** A FileUpload field and the value the record holds for it (its file's name, or none). */
export interface CurrentFile {
  storageName: string;
  inputName: string;
  value: string | undefined;
}

export interface DynamicFormProps {
  /** The form's name (`data-form` of the container). */
  formName: string;
  groups: readonly DynamicFormGroup[];
  /** The choices of the setup event; keep the object stable while they do not change. */
  setup: FormSetupDetail;
  /** Values to pre-fill, by input name; read when a group is injected. */
  values?: InputValues;
  /** The server's refusals by field label; null (or none) shows none. */
  errors?: FieldErrors | null;
  /** What a FileUpload field shows under its input (the current file and its download). */
  renderFile?: (file: CurrentFile) => ReactNode;
  ref?: Ref<DynamicFormHandle>;
}

const NO_VALUES: InputValues = {};

export function DynamicForm({
  formName,
  groups,
  setup,
  values = NO_VALUES,
  errors = null,
  renderFile,
  ref,
}: DynamicFormProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  /** The element of each group's HTML, by group name. */
  const slots = useRef(new Map<string, HTMLElement>());
  /** The HTML each slot holds now. */
  const injected = useRef(new WeakMap<HTMLElement, string>());
  const [files, setFiles] = useState<FileField[]>([]);

  // The event carries the latest choices, whenever the throttle lets it go.
  const announced = useRef<FormSetupDetail | null>(null);
  const announceSetup = useThrottled((container: HTMLElement) => {
    announced.current = setup;
    container.dispatchEvent(new CustomEvent(FORM_SETUP_EVENT, { detail: setup }));
  }, FORM_SETUP_THROTTLE_MS);

  // The host's own listener: the choice selects take the event's choices. A layout effect, so
  // that it listens before the first injection below dispatches the event.
  useLayoutEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const onSetup = (event: Event) => {
      fillChoices(container, (event as CustomEvent<FormSetupDetail>).detail);
    };
    container.addEventListener(FORM_SETUP_EVENT, onSetup);
    return () => container.removeEventListener(FORM_SETUP_EVENT, onSetup);
  }, []);

  // Injects the HTML of each group that is new or changed, then pre-fills it, marks its refused
  // fields and announces it with the setup event.
  useLayoutEffect(() => {
    let changed = false;
    for (const group of groups) {
      const slot = slots.current.get(group.name);
      if (group.html === undefined || !slot || injected.current.get(slot) === group.html) continue;
      slot.replaceChildren(sanitizeFormHtml(group.html));
      injected.current.set(slot, group.html);
      prefill(slot, values);
      showFieldErrors(slot, errors);
      changed = true;
    }
    const container = containerRef.current;
    if (!changed || !container) return;
    if (renderFile) setFiles(fileFields(container));
    announceSetup(container);
  }, [groups, values, errors, renderFile, announceSetup]);

  // New choices (the lists arrived after the HTML) reach the selects through the event too.
  useEffect(() => {
    const container = containerRef.current;
    if (container && announced.current !== null && announced.current !== setup) {
      announceSetup(container);
    }
  }, [setup, announceSetup]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    showFieldErrors(container, errors);
    if (errors) firstInvalidControl(container)?.focus();
  }, [errors]);

  useImperativeHandle(
    ref,
    () => ({
      collect: () => collectForm(containerRef.current ?? document.createDocumentFragment(), values),
    }),
    [values],
  );

  const slotRef = (name: string) => (element: HTMLDivElement | null) => {
    if (element) slots.current.set(name, element);
    else slots.current.delete(name);
  };

  return (
    <div ref={containerRef} className="df-form" data-form={formName}>
      {groups.map((group) =>
        group.html !== undefined ? (
          <div key={group.name} ref={slotRef(group.name)} className="df-group-slot" />
        ) : group.error !== undefined ? (
          <GroupError key={group.name} group={group.name} error={group.error} />
        ) : (
          <GroupLoading key={group.name} group={group.name} />
        ),
      )}
      {renderFile &&
        files.map((file) =>
          createPortal(
            renderFile({
              storageName: file.storageName,
              inputName: file.inputName,
              value: values[file.inputName] || undefined,
            }),
            file.slot,
            file.inputName,
          ),
        )}
    </div>
  );
}

function GroupLoading({ group }: { group: string }) {
  const { t } = useTranslation();
  return (
    <div role="status" className="grid gap-2">
      <span className="text-muted-foreground text-sm">
        {t('dynamicForm.groupLoading', { group })}
      </span>
      <Skeleton className="h-9 w-full" />
    </div>
  );
}

function GroupError({ group, error }: { group: string; error: string }) {
  const { t } = useTranslation();
  return (
    <Alert variant="destructive" data-failed-group={group}>
      <CircleAlertIcon aria-hidden="true" />
      <AlertDescription>{t('dynamicForm.groupFailed', { group, message: error })}</AlertDescription>
    </Alert>
  );
}
