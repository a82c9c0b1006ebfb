import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES, isPageSize, type PageSize } from '@console/contracts';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';

/** The page-size selector of every list screen: 10, 25, 50 or 100 (spec part 1, section 9). */
export function PageSizeSelect({
  value,
  onChange,
}: {
  value: PageSize;
  onChange: (size: PageSize) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor={id} className="text-sm font-medium whitespace-nowrap">
        {t('table.pageSize')}
      </Label>
      <Select
        value={String(value)}
        onValueChange={(next) => {
          const size = Number(next);
          if (isPageSize(size)) onChange(size);
        }}
      >
        <SelectTrigger id={id} size="sm" className="w-20">
          <SelectValue />
        </SelectTrigger>
        <SelectContent side="top">
          {PAGE_SIZES.map((size) => (
            <SelectItem key={size} value={String(size)}>
              {size}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
