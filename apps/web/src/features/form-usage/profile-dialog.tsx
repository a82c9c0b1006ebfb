/**
 * The tenant and entity profile dialogs (spec part 1, section 2: "a profile dialog (dynamic form
 * EditTenantProfile)", "A Profile button opens an entity profile dialog (dynamic form
 * EditEntityProfile)"; sections 7 and 8). The profile form's groups are rendered and pre-filled
 * with the stored values; a FileUpload field shows the file it holds, with its download. Saving
 * sends the values as multipart form data: on success a toast and the dialog closes; a 400 with
 * an errors map says 'validation errors' and marks each field with its messages joined by
 * commas; any other failure shows the server's message or title.
 */
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CircleAlertIcon, FileIcon } from 'lucide-react';
import {
  dataObjectInputName,
  entityDisplayName,
  PROFILE_FORM_NAMES,
  PROFILE_SAVED_MESSAGE,
  type Entity,
  type Profile,
  type Tenant,
} from '@console/contracts';
import {
  DynamicDialogForm,
  DynamicDialogMessage,
  loadingOrFailure,
  serverMessageOf,
  useFieldGroups,
  validationProblemOf,
  type CollectedForm,
  type CurrentFile,
  type SubmitOutcome,
} from '@/components/dynamic-form';
import { FormDialog, type FormDialogProps } from '@/components/form';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { apiErrorMessage } from '@/lib/api-client';
import {
  downloadProfileFile,
  fetchProfileFieldGroup,
  formUsageQueryKeys,
  type ProfileSubject,
  useFormChoices,
  useProfileQuery,
  useSaveProfileMutation,
} from './api';
import { loadWarnings } from './load-warnings';

type DialogProps = Pick<FormDialogProps, 'open' | 'onOpenChange'>;

/** The profile dialog of a tenant (form EditTenantProfile). */
export function TenantProfileDialog({ tenant, ...props }: DialogProps & { tenant: Tenant | null }) {
  const subject = useMemo<ProfileSubject | null>(
    () => tenant && { target: 'Tenant', id: tenant.id, name: tenant.companyName },
    [tenant],
  );
  return <ProfileDialog subject={subject} {...props} />;
}

/** The profile dialog of an entity (form EditEntityProfile). */
export function EntityProfileDialog({ entity, ...props }: DialogProps & { entity: Entity | null }) {
  const subject = useMemo<ProfileSubject | null>(
    () => entity && { target: 'Entity', id: entity.partyEntityId, name: entityDisplayName(entity) },
    [entity],
  );
  return <ProfileDialog subject={subject} {...props} />;
}

function ProfileDialog({
  open,
  onOpenChange,
  subject,
}: DialogProps & { subject: ProfileSubject | null }) {
  const { t } = useTranslation();
  const target = subject?.target ?? 'Tenant';
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t(target === 'Tenant' ? 'formUsage.tenantTitle' : 'formUsage.entityTitle', {
        name: subject?.name ?? '',
      })}
      description={t('formUsage.description', { form: PROFILE_FORM_NAMES[target] })}
      className="max-h-[90vh] overflow-y-auto sm:max-w-3xl"
    >
      {/* Made afresh, with the stored values, at each opening. */}
      {subject && <ProfileLoader key={`${subject.target}:${subject.id}`} subject={subject} />}
    </FormDialog>
  );
}

function ProfileLoader({ subject }: { subject: ProfileSubject }) {
  const { t } = useTranslation();
  const profile = useProfileQuery(subject);
  const waiting = loadingOrFailure(profile, {
    loadingText: t('formUsage.loading'),
    closeText: t('formUsage.cancel'),
  });
  if (waiting || !profile.data) return waiting;
  const { formExists, formName, groups } = profile.data;
  if (!formExists || groups.length === 0) {
    return (
      <DynamicDialogMessage closeText={t('formUsage.cancel')}>
        <Alert>
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription>
            {t(formExists ? 'formUsage.noGroups' : 'formUsage.formMissing', { form: formName })}
          </AlertDescription>
        </Alert>
      </DynamicDialogMessage>
    );
  }
  return <ProfileForm subject={subject} profile={profile.data} />;
}

function ProfileForm({ subject, profile }: { subject: ProfileSubject; profile: Profile }) {
  const { t } = useTranslation();
  const { formName } = profile;
  const fieldGroups = useFieldGroups({
    groups: profile.groups,
    queryKey: (group) => formUsageQueryKeys.fieldGroup(formName, group),
    load: (group, signal) => fetchProfileFieldGroup(formName, group, signal),
  });
  const setup = useFormChoices();
  const values = useMemo(
    () =>
      Object.fromEntries(
        Object.entries(profile.metadata).map(([key, value]) => [dataObjectInputName(key), value]),
      ),
    [profile.metadata],
  );
  const save = useSaveProfileMutation(subject);

  const onSubmit = async (form: CollectedForm): Promise<SubmitOutcome> => {
    try {
      await save.mutateAsync(form);
      toast.success(PROFILE_SAVED_MESSAGE);
      return { kind: 'done' };
    } catch (error) {
      const problem = validationProblemOf(error);
      if (problem) {
        return {
          kind: 'failure',
          message: t('formUsage.validationErrors'),
          errors: problem.errors,
        };
      }
      return { kind: 'failure', message: serverMessageOf(error) ?? apiErrorMessage(error) };
    }
  };

  const renderFile = useCallback(
    (file: CurrentFile) =>
      file.value ? <CurrentProfileFile subject={subject} file={file} name={file.value} /> : null,
    [subject],
  );

  return (
    <DynamicDialogForm
      formName={formName}
      groups={fieldGroups.groups}
      warnings={loadWarnings(fieldGroups, t)}
      setup={setup}
      values={values}
      renderFile={renderFile}
      onSubmit={onSubmit}
      canSubmit={!fieldGroups.loading}
      submitText={t('formUsage.save')}
      pendingText={t('formUsage.saving')}
      cancelText={t('formUsage.cancel')}
    />
  );
}

/** The file a FileUpload field holds, with its download. */
function CurrentProfileFile({
  subject,
  file,
  name,
}: {
  subject: ProfileSubject;
  file: CurrentFile;
  name: string;
}) {
  const { t } = useTranslation();
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadProfileFile(subject, file.storageName, name);
    } catch (error) {
      toast.error(t('formUsage.downloadFailed', { file: name, message: apiErrorMessage(error) }));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <p className="text-muted-foreground flex flex-wrap items-center gap-x-2 text-sm">
      <FileIcon aria-hidden="true" className="size-4" />
      <span>{t('formUsage.currentFile', { file: name })}</span>
      <Button
        type="button"
        variant="link"
        size="sm"
        className="h-auto p-0"
        aria-label={t('formUsage.downloadLabel', { file: name })}
        disabled={downloading}
        onClick={() => void download()}
      >
        {t('formUsage.download')}
      </Button>
    </p>
  );
}
