import { lazy, Suspense, useId, useState } from 'react';
import { ChevronDownIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { PageSize } from '@console/contracts';
import { Label } from '@/components/ui/label';
import { selectTriggerClass } from '@/components/ui/select-trigger-class';
import { cn } from '@/components/ui/utils';

const loadMenu = () => import('./page-size-select-menu');
const PageSizeSelectMenu = lazy(loadMenu);

/**
 * The page-size selector of every list screen: 10, 25, 50 or 100 (spec part 1, section 9). Until
 * it is first used it is a look-alike trigger: Radix's select and its positioning (about 15 kB
 * gzip) load when the pointer comes over it or it gets the focus, and a press opens the list as
 * soon as they have arrived, so a list screen is usable before them.
 */
export function PageSizeSelect({
  value,
  onChange,
}: {
  value: PageSize;
  onChange: (size: PageSize) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [used, setUsed] = useState(false);
  const trigger = (
    <button
      type="button"
      role="combobox"
      id={id}
      aria-expanded={false}
      aria-autocomplete="none"
      data-size="sm"
      className={cn(selectTriggerClass, 'w-20')}
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={() => setUsed(true)}
    >
      <span data-slot="select-value">{value}</span>
      <ChevronDownIcon className="size-4 opacity-50" aria-hidden="true" />
    </button>
  );
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor={id} className="text-sm font-medium whitespace-nowrap">
        {t('table.pageSize')}
      </Label>
      {used ? (
        <Suspense fallback={trigger}>
          <PageSizeSelectMenu id={id} value={value} onChange={onChange} />
        </Suspense>
      ) : (
        trigger
      )}
    </div>
  );
}
