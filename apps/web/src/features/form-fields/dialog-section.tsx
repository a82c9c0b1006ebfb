import { useId, type ReactNode } from 'react';
import { cn } from '@/components/ui/utils';

/**
 * One titled section of the field dialog (spec 2: Basic Information, Tags, ...). A section whose
 * one control is labelled with the same words (Tags, API References) keeps its title for screen
 * readers only, so that the words are not shown twice.
 */
export function DialogSection({
  title,
  titleShown = true,
  children,
}: {
  title: string;
  titleShown?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid gap-3 border-t pt-4 first-of-type:border-t-0">
      <h3 id={id} className={cn('text-sm font-semibold', !titleShown && 'sr-only')}>
        {title}
      </h3>
      {children}
    </section>
  );
}
