/**
 * The side panel of a row (issue 31): the audit log's "what changed, side by side" and the
 * events screen's payload and processing. One component, so both screens read and behave alike:
 * a sheet on the right, wide enough for two columns, its text wrapped, nothing run as HTML
 * (values are React text, never markup).
 */
import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '@/components/ui/sheet';
import { addNamespaces } from '@/lib/i18n';
import { changePanel } from '@/locales/en.json?changePanel&lang.json';
import { diffValues, pathLabel, valueText, type Side } from './diff';

addNamespaces({ changePanel });

export interface ChangePanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  children: ReactNode;
}

/** A sheet on the right of the screen with a title, a description and its content scrolling. */
export function ChangePanel({
  open,
  onOpenChange,
  title,
  description,
  children,
}: ChangePanelProps) {
  // A row's button opens the panel (no Radix trigger): focus goes back to it on close.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        className="w-full gap-0 sm:max-w-2xl"
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
        <SheetHeader className="border-b pr-10">
          <SheetTitle className="break-words">{title}</SheetTitle>
          <SheetDescription className="break-words">{description}</SheetDescription>
        </SheetHeader>
        <div className="flex min-h-0 flex-1 flex-col gap-6 overflow-y-auto p-4">{children}</div>
      </SheetContent>
    </Sheet>
  );
}

/** A titled part of a panel. */
export function PanelSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h3 id={id} className="text-sm font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** A JSON value pretty-printed, wrapped rather than scrolled sideways. */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <pre
      aria-label={label}
      tabIndex={0}
      className="bg-muted max-h-96 overflow-y-auto rounded-md p-3 font-mono text-xs break-words whitespace-pre-wrap"
    >
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

function SideCell({ side, absent }: { side: Side; absent: string }) {
  if (!side.present) return <span className="text-muted-foreground italic">{absent}</span>;
  return (
    <span className="font-mono text-xs break-words whitespace-pre-wrap">
      {valueText(side.value)}
    </span>
  );
}

/**
 * Before and after side by side, one row per plain value (diff.ts): the changed ones by
 * default, all with the switch.
 */
export function ChangeTable({ before, after }: { before: unknown; after: unknown }) {
  const { t } = useTranslation();
  const switchId = useId();
  const [showAll, setShowAll] = useState(false);
  const rows = useMemo(() => diffValues(before, after), [before, after]);
  // Numbered before filtering: a row keeps its key when the switch shows the others.
  const shown = rows
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => showAll || row.changed);
  const nothingRecorded = before == null && after == null;
  const absent = t('changePanel.absent');
  return (
    <PanelSection title={t('changePanel.changes')}>
      <div className="flex items-center gap-2">
        <Checkbox
          id={switchId}
          checked={showAll}
          onCheckedChange={(checked) => setShowAll(checked === true)}
        />
        <Label htmlFor={switchId}>{t('changePanel.showAll')}</Label>
      </div>
      {nothingRecorded || shown.length === 0 ? (
        <p className="text-muted-foreground text-sm">
          {nothingRecorded ? t('changePanel.noValues') : t('changePanel.noChanges')}
        </p>
      ) : (
        <table className="w-full table-fixed border-collapse text-sm">
          <thead>
            <tr className="border-b text-left">
              <th scope="col" className="w-1/4 py-2 pr-2 font-medium">
                {t('changePanel.field')}
              </th>
              <th scope="col" className="w-3/8 py-2 pr-2 font-medium">
                {t('changePanel.before')}
              </th>
              <th scope="col" className="w-3/8 py-2 font-medium">
                {t('changePanel.after')}
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map(({ row, index }) => {
              const label = pathLabel(row.path);
              return (
                <tr
                  key={index}
                  data-changed={row.changed}
                  className={row.changed ? 'border-b bg-amber-50 dark:bg-amber-950/40' : 'border-b'}
                >
                  <th scope="row" className="py-2 pr-2 text-left align-top font-normal break-words">
                    {label}
                  </th>
                  <td className="py-2 pr-2 align-top">
                    <SideCell side={row.before} absent={absent} />
                  </td>
                  <td className="py-2 align-top">
                    <SideCell side={row.after} absent={absent} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </PanelSection>
  );
}
