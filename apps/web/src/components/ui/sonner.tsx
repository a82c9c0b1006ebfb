import type * as React from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';

// sonner's own defaults are the spec's constants (part 1, section 9: 4000 ms, 3 visible, width
// 356, gap 14, offset 32, hotkey alt+T): only the theme and the colours are set here.
function Toaster({ ...props }: ToasterProps) {
  return (
    <Sonner
      theme="light"
      className="toaster group"
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster };
