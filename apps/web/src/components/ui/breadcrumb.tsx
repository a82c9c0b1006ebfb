import type * as React from 'react';
import { Slot } from 'radix-ui';
import { ChevronRightIcon } from 'lucide-react';
import { slotted } from './slotted';
import { cn } from './utils';

function Breadcrumb({ ...props }: React.ComponentProps<'nav'>) {
  return <nav aria-label="breadcrumb" data-slot="breadcrumb" {...props} />;
}

const BreadcrumbList = slotted(
  'ol',
  'breadcrumb-list',
  'text-muted-foreground flex flex-wrap items-center gap-1.5 text-sm break-words sm:gap-2.5',
);

const BreadcrumbItem = slotted('li', 'breadcrumb-item', 'inline-flex items-center gap-1.5');

function BreadcrumbLink({
  asChild,
  className,
  ...props
}: React.ComponentProps<'a'> & {
  asChild?: boolean;
}) {
  const Comp = asChild ? Slot.Root : 'a';

  return (
    <Comp
      data-slot="breadcrumb-link"
      className={cn('hover:text-foreground transition-colors', className)}
      {...props}
    />
  );
}

// Unlike shadcn's, the current page is plain text (no role="link"): the spec says the last
// crumb is not a link, and assistive technology should not announce it as one.
const BreadcrumbPage = slotted('span', 'breadcrumb-page', 'text-foreground font-normal', {
  'aria-current': 'page',
});

function BreadcrumbSeparator({ children, className, ...props }: React.ComponentProps<'li'>) {
  return (
    <li
      data-slot="breadcrumb-separator"
      role="presentation"
      aria-hidden="true"
      className={cn('[&>svg]:size-3.5', className)}
      {...props}
    >
      {children ?? <ChevronRightIcon />}
    </li>
  );
}

export {
  Breadcrumb,
  BreadcrumbList,
  BreadcrumbItem,
  BreadcrumbLink,
  BreadcrumbPage,
  BreadcrumbSeparator,
};
