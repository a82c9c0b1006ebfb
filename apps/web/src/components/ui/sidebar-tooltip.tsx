import type * as React from 'react';
import { Tooltip, TooltipContent, TooltipTrigger } from './tooltip';

/**
 * The tooltip of a sidebar button, shown beside the collapsed sidebar only. Loaded when the
 * sidebar first collapses (sidebar.tsx): Radix's tooltip and its positioning (about 15 kB gzip)
 * are not needed before an expanded shell is usable.
 */
export default function SidebarTooltip({
  content,
  children,
}: {
  content: React.ComponentProps<typeof TooltipContent>;
  /** The button. */
  children: React.ReactElement;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent side="right" align="center" {...content} />
    </Tooltip>
  );
}
