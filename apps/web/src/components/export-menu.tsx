import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportFormat } from '@console/contracts';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useFirstItemFocus } from './lazy-menu';

/** The Export control's menu of formats (loaded with its first use, export-button.tsx). */
export default function ExportMenu({
  trigger,
  openedByKeyboard,
  onChoose,
}: {
  trigger: ReactElement;
  openedByKeyboard: boolean;
  onChoose: (format: ExportFormat) => void;
}) {
  const { t } = useTranslation();
  const content = useFirstItemFocus(openedByKeyboard);
  return (
    // Not modal: a modal menu hides the page from assistive technology while its buttons stay
    // focusable (axe's aria-hidden-focus); two items need no focus trap.
    <DropdownMenu modal={false} defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" ref={content}>
        <DropdownMenuLabel>{t('exportList.menuLabel')}</DropdownMenuLabel>
        <DropdownMenuItem onSelect={() => onChoose('csv')}>{t('exportList.csv')}</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => onChoose('xlsx')}>
          {t('exportList.xlsx')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
