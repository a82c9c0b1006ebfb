import { useTranslation } from 'react-i18next';
import type { PageSize } from '@console/contracts';
import { Button } from '@/components/ui/button';
import { showingRange } from '@/lib/paging';
import { PageSizeSelect } from './page-size-select';

export interface DataTablePaginationProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  pageSize: PageSize;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: PageSize) => void;
  /**
   * 'client' shows 'page X of Y' (the list screens of spec part 1, section 2); 'server' shows
   * 'Page X of Y' and 'Showing a to b of n entries' (the events screen).
   */
  variant?: 'client' | 'server';
  /** Total number of entries, for the server variant's 'Showing ...' line. */
  totalCount?: number;
}

/** Page-size selector, the page indicator and Previous / Next. */
export function DataTablePagination({
  page,
  pageCount,
  pageSize,
  onPageChange,
  onPageSizeChange,
  variant = 'client',
  totalCount = 0,
}: DataTablePaginationProps) {
  const { t } = useTranslation();
  const range = showingRange(page, pageSize, totalCount);
  return (
    <div className="flex flex-wrap items-center justify-between gap-4 px-2">
      <PageSizeSelect value={pageSize} onChange={onPageSizeChange} />
      <div className="flex flex-wrap items-center gap-4 text-sm">
        {variant === 'server' && (
          <p className="text-muted-foreground">
            {t('table.showing', { from: range.from, to: range.to, total: totalCount })}
          </p>
        )}
        <p aria-live="polite" className="font-medium">
          {variant === 'server'
            ? t('table.pageOfServer', { page, pageCount })
            : t('table.pageOf', { page, pageCount })}
        </p>
        <div className="flex items-center gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={page <= 1}
            onClick={() => onPageChange(page - 1)}
          >
            {t('table.previous')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={page >= pageCount}
            onClick={() => onPageChange(page + 1)}
          >
            {t('table.next')}
          </Button>
        </div>
      </div>
    </div>
  );
}
