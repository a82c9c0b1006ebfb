import type * as React from 'react';
import { slotted } from './slotted';
import { cn } from './utils';

function Table({ className, ...props }: React.ComponentProps<'table'>) {
  return (
    <div data-slot="table-container" className="relative w-full overflow-x-auto">
      <table
        data-slot="table"
        className={cn('w-full caption-bottom text-sm', className)}
        {...props}
      />
    </div>
  );
}

const TableHeader = slotted('thead', 'table-header', '[&_tr]:border-b');

const TableBody = slotted('tbody', 'table-body', '[&_tr:last-child]:border-0');

const TableRow = slotted(
  'tr',
  'table-row',
  'hover:bg-muted/50 data-[state=selected]:bg-muted border-b transition-colors',
);

const TableHead = slotted(
  'th',
  'table-head',
  'text-foreground h-10 px-2 text-left align-middle font-medium whitespace-nowrap [&:has([role=checkbox])]:pr-0 [&>[role=checkbox]]:translate-y-[2px]',
);

const TableCell = slotted(
  'td',
  'table-cell',
  'p-2 align-middle whitespace-nowrap [&:has([role=checkbox])]:pr-0 [&>[role=checkbox]]:translate-y-[2px]',
);

export { Table, TableHeader, TableBody, TableHead, TableRow, TableCell };
