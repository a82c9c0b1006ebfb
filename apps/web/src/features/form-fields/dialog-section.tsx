import { useId, type ReactNode } from 'react';

/** One titled section of the field dialog (spec 2: Basic Information, Tags, ...). */
export function DialogSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid gap-3 border-t pt-4 first-of-type:border-t-0">
      <h3 id={id} className="text-sm font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}
