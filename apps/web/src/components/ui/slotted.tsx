import type * as React from 'react';
import { cn } from './utils';

/**
 * Makes the usual shadcn/ui wrapper once: `Component` with `data-slot={slot}`, any fixed
 * `attrs` (e.g. `data-sidebar`), and, when `base` is given, `className={cn(base, className)}`.
 * The result takes exactly `Component`'s props; `ref` passes through as a prop (React 19).
 */
export function slotted<T extends React.ElementType>(
  Component: T,
  slot: string,
  base?: string,
  attrs?: Record<`data-${string}` | `aria-${string}`, string>,
) {
  // JSX cannot check a generic element type; the public signature below carries the types.
  const Element = Component as React.ElementType;
  function Slotted(props: React.ComponentProps<T>) {
    if (base === undefined) return <Element data-slot={slot} {...attrs} {...props} />;
    const { className, ...rest } = props as React.ComponentProps<T> & { className?: string };
    return <Element data-slot={slot} {...attrs} className={cn(base, className)} {...rest} />;
  }
  Slotted.displayName = slot;
  return Slotted;
}
