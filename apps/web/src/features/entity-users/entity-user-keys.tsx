/**
 * The expandable key list of one entity user (spec part 1, sections 2, 3 and 9): each key's name
 * and value, a value above 50 characters shortened to its first 47 and an ellipsis (the whole
 * value in its title), and for admins the delete-key control of each key.
 */
import { useState } from 'react';
import { ChevronDownIcon, ChevronRightIcon, Trash2Icon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { displayKeyValue, type EntityUser } from '@console/contracts';
import { Button } from '@/components/ui/button';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';

const keyOrder = new Intl.Collator('en', { numeric: true });

export function EntityUserKeys({
  user,
  userName,
  canDelete,
  onDeleteKey,
}: {
  user: EntityUser;
  userName: string;
  /** Admins only (spec 6): the server refuses anyone else. */
  canDelete: boolean;
  onDeleteKey: (user: EntityUser, keyName: string) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const keys = Object.entries(user.keys).sort(([a], [b]) => keyOrder.compare(a, b));
  if (keys.length === 0) {
    return <span className="text-muted-foreground text-sm">{t('entityUsers.noKeys')}</span>;
  }
  const Icon = open ? ChevronDownIcon : ChevronRightIcon;
  return (
    <Collapsible open={open} onOpenChange={setOpen}>
      <CollapsibleTrigger asChild>
        <Button variant="ghost" size="sm" className="-ml-2">
          <Icon aria-hidden="true" />
          {open
            ? t('entityUsers.hideKeys', { count: keys.length })
            : t('entityUsers.showKeys', { count: keys.length })}
        </Button>
      </CollapsibleTrigger>
      <CollapsibleContent>
        <ul
          aria-label={t('entityUsers.keysOf', { name: userName })}
          className="mt-1 grid gap-1 text-xs"
        >
          {keys.map(([name, value]) => {
            const shown = displayKeyValue(value);
            return (
              <li key={name} className="flex items-center gap-2">
                <span className="font-mono font-medium">{name}</span>
                <span
                  className="text-muted-foreground font-mono break-all"
                  title={shown === value ? undefined : value}
                >
                  {shown}
                </span>
                {canDelete && (
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-7"
                    aria-label={t('entityUsers.deleteKey', { name })}
                    onClick={() => onDeleteKey(user, name)}
                  >
                    <Trash2Icon aria-hidden="true" />
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      </CollapsibleContent>
    </Collapsible>
  );
}
