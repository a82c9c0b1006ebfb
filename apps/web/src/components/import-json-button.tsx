/**
 * The import control of the countries and document types screens (spec part 1, section 5,
 * "Import files", and section 8, "Import failures"): a button that opens the file picker for a
 * .json file, checks the file (contracts' `parseImportFile`: the type, the JSON, the array, each
 * record's required fields), sends its records, and says how it went in a toast: the check's
 * message, 'Import failed: {message}' with the server's own words, or the screen's success text.
 */
import { useRef, useState } from 'react';
import { UploadIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  IMPORT_FILE_MESSAGES,
  isJsonFileName,
  parseImportFile,
  type ImportFileKind,
  type ImportResult,
} from '@console/contracts';
import { Button } from '@/components/ui/button';
import { apiErrorMessage } from '@/lib/api-client';
import { addNamespaces } from '@/lib/i18n';
import { importJson } from '@/locales/en.json?importJson&lang.json';

addNamespaces({ importJson });

export interface ImportJsonButtonProps<T> {
  /** The button's text, e.g. 'Import Countries'. */
  label: string;
  /** What the file holds: `countryImportFile` or `documentTypeImportFile`. */
  file: ImportFileKind<T>;
  /** Sends the records; resolves to the server's answer. */
  importRecords: (records: T[]) => Promise<ImportResult>;
  /** The success toast, e.g. count => 'Imported 249 countries'. */
  successMessage: (count: number) => string;
}

export function ImportJsonButton<T>({
  label,
  file: kind,
  importRecords,
  successMessage,
}: ImportJsonButtonProps<T>) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const [importing, setImporting] = useState(false);

  async function importFile(file: File) {
    // Another file type is not even read.
    if (!isJsonFileName(file.name)) {
      toast.error(IMPORT_FILE_MESSAGES.notJsonFile);
      return;
    }
    setImporting(true);
    try {
      let text: string;
      try {
        text = await file.text();
      } catch {
        toast.error(IMPORT_FILE_MESSAGES.invalidJson);
        return;
      }
      const parsed = parseImportFile(kind, file.name, text);
      if (!parsed.ok) {
        toast.error(parsed.message);
        return;
      }
      try {
        const { count } = await importRecords(parsed.records);
        toast.success(successMessage(count));
      } catch (error) {
        toast.error(t('importJson.failed', { message: apiErrorMessage(error) }));
      }
    } finally {
      setImporting(false);
    }
  }

  return (
    <>
      <Button
        variant="outline"
        disabled={importing}
        aria-busy={importing || undefined}
        onClick={() => inputRef.current?.click()}
      >
        <UploadIcon aria-hidden="true" />
        {importing ? t('importJson.importing') : label}
      </Button>
      <input
        ref={inputRef}
        type="file"
        accept=".json,application/json"
        aria-label={label}
        hidden
        onChange={(event) => {
          const input = event.currentTarget;
          const chosen = input.files?.[0];
          // Choosing the same file again must fire a change again.
          input.value = '';
          if (chosen) void importFile(chosen);
        }}
      />
    </>
  );
}
