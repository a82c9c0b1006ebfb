import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from './sheet';

/**
 * The sidebar on a phone: a sheet (Radix's dialog) over the page. Loaded only on a narrow window
 * (sidebar.tsx), so a desktop shell does not download the dialog code before it is usable.
 */
export default function SidebarSheet({
  open,
  onOpenChange,
  side,
  width,
  children,
  ...props
}: React.ComponentProps<'div'> & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  side: 'left' | 'right';
  width: string;
}) {
  const { t } = useTranslation();
  return (
    <Sheet open={open} onOpenChange={onOpenChange} {...props}>
      <SheetContent
        data-sidebar="sidebar"
        data-slot="sidebar"
        data-mobile="true"
        className="bg-sidebar text-sidebar-foreground w-(--sidebar-width) p-0 [&>button]:hidden"
        style={{ '--sidebar-width': width } as React.CSSProperties}
        side={side}
      >
        <SheetHeader className="sr-only">
          <SheetTitle>{t('common.sidebarTitle')}</SheetTitle>
          <SheetDescription>{t('common.sidebarDescription')}</SheetDescription>
        </SheetHeader>
        <div className="flex h-full w-full flex-col">{children}</div>
      </SheetContent>
    </Sheet>
  );
}
