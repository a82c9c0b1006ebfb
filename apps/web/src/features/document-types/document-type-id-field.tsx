/**
 * The document type ID (spec part 1, section 5): typed only when creating, read-only when
 * editing. The input strips invalid characters as typed or pasted; when it did, the field says
 * which characters it keeps ('ID can only contain lowercase letters, numbers, and underscores')
 * instead of the rule's own message.
 */
import { useState } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DOCUMENT_TYPE_ID_MESSAGES, sanitizeDocumentTypeIdInput } from '@console/contracts';
import { FormField } from '@/components/form';
import { Input } from '@/components/ui/input';
import type { DocumentTypeDialogMode, DocumentTypeFormValues } from './document-type-form';

const strippedMessage = () => DOCUMENT_TYPE_ID_MESSAGES.invalidCharacters;

export function DocumentTypeIdField({ mode }: { mode: DocumentTypeDialogMode }) {
  const { t } = useTranslation();
  const { field } = useController<DocumentTypeFormValues, 'id'>({ name: 'id' });
  // The last thing typed into the ID had characters the input stripped.
  const [stripped, setStripped] = useState(false);
  return (
    <FormField<DocumentTypeFormValues>
      name="id"
      label={t('documentTypes.dialog.id')}
      description={mode === 'create' ? t('documentTypes.dialog.idHint') : undefined}
      messageOf={stripped ? strippedMessage : undefined}
      render={(control) => (
        <Input
          {...control}
          name={field.name}
          ref={field.ref}
          value={field.value}
          onBlur={field.onBlur}
          readOnly={mode === 'edit'}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          onChange={(event) => {
            const typed = event.target.value;
            const kept = sanitizeDocumentTypeIdInput(typed);
            setStripped(kept !== typed);
            field.onChange(kept);
          }}
        />
      )}
    />
  );
}
