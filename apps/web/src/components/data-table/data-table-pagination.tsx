import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageSize } from '@console/contracts';
import { Button } from '@/components/ui/button';
import { showingRange } from '@/lib/paging';
import { PageSizeSelect } from './page-size-select';

/** The pager's words, passed in by the screen (the table knows no screen's wording). */
export interface PagerTexts {
  /** The page indicator, e.g. 'page 2 of 5'. */
  page: (page: number, pageCount: number) => string;
  /** The line 'Showing a to b of n entries', when the screen shows one. */
  range?: (range: { from: number; to: number; total: number }) => string;
}

/**
 * The pager of the page-numbered lists (events, audit log): 'Page X of Y' and 'Showing a to b of
 * n entries' (spec part 1, "Events screen"), n as "about n" when the server answered an estimate
 * (`totalIsEstimate`: beyond the exact threshold, docs/audit.md "Totals").
 */
export function usePageNumberPagerTexts(totalIsEstimate: boolean): PagerTexts {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      page: (current, pageCount) => t('table.pageOfServer', { page: current, pageCount }),
      range: ({ from, to, total }) =>
        t('table.showing', {
          from,
          to,
          total: totalIsEstimate ? t('table.about', { total }) : total,
        }),
    }),
    [t, totalIsEstimate],
  );
}

export interface DataTablePaginationProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  pageSize: PageSize;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: PageSize) => void;
  texts: PagerTexts;
  /** Total number of entries, for the range line. */
  totalCount?: number;
}

/** Page-size selector, the page indicator and Previous / Next. */
export function DataTablePagination({
  page,
  pageCount,
  pageSize,
  onPageChange,
  onPageSizeChange,
  texts,
  totalCount = 0,
}: DataTablePaginationProps) {
  const { t } = useTranslation();
  const range = showingRange(page, pageSize, totalCount);
  return (
    <div className="flex flex-wrap items-center justify-between gap-4 px-2">
      <PageSizeSelect value={pageSize} onChange={onPageSizeChange} />
      <div className="flex flex-wrap items-center gap-4 text-sm">
        {texts.range && (
          <p className="text-muted-foreground">{texts.range({ ...range, total: totalCount })}</p>
        )}
        <p aria-live="polite" className="font-medium">
          {texts.page(page, pageCount)}
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
