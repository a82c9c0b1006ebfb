import { PAGE_SIZES, isPageSize, type PageSize } from '@console/contracts';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';

/** The page-size selector's Radix select, loaded with its first use (page-size-select.tsx). */
export default function PageSizeSelectMenu({
  id,
  value,
  onChange,
}: {
  id: string;
  value: PageSize;
  onChange: (size: PageSize) => void;
}) {
  return (
    <Select
      defaultOpen
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
  );
}
