import {
  Suspense,
  useEffect,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type ReactElement,
  type ReactNode,
} from 'react';

/** What the placeholder button of a LazyMenu is given (the loaded menu's trigger gets none). */
export type LazyMenuButtonProps = Pick<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'aria-haspopup' | 'aria-expanded' | 'onPointerEnter' | 'onFocus' | 'onClick'
>;

/**
 * A button that opens a menu whose code (Radix's dropdown menu with its popper, about 20 kB
 * gzip) is not needed before the screen is usable: `prefetch` loads it when the pointer comes
 * over the button or the button gets the focus, and a press before it arrived opens it as soon
 * as it does. `button` renders the button with the props given; `menu` renders the loaded menu,
 * open at once, around the trigger it is given, and is told whether a key press opened it
 * (useFirstItemFocus).
 */
export function LazyMenu({
  button,
  prefetch,
  menu,
}: {
  button: (props: LazyMenuButtonProps) => ReactElement;
  /** Starts loading the menu's module (the import that `menu`'s lazy component makes). */
  prefetch: () => Promise<unknown>;
  menu: (trigger: ReactElement, openedByKeyboard: boolean) => ReactNode;
}) {
  const [pressed, setPressed] = useState<'keyboard' | 'pointer' | null>(null);
  const placeholder = button({
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: () => void prefetch(),
    onFocus: () => void prefetch(),
    // A click that Enter or Space makes has no pointer presses (detail 0).
    onClick: (event) => setPressed(event.detail === 0 ? 'keyboard' : 'pointer'),
  });
  return pressed ? (
    <Suspense fallback={placeholder}>{menu(button({}), pressed === 'keyboard')}</Suspense>
  ) : (
    placeholder
  );
}

/**
 * The ref of a LazyMenu's content: opened by a key press, the menu's first item takes the focus,
 * as Radix does for a menu it saw opened by keyboard. Radix cannot see it here (the key was
 * pressed before the menu's code had loaded) and focuses the content; later openings are its own.
 */
export function useFirstItemFocus(openedByKeyboard: boolean) {
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!openedByKeyboard) return;
    // After Radix has focused the content as it opened.
    const frame = requestAnimationFrame(() =>
      content.current
        ?.querySelector<HTMLElement>('[role="menuitem"]:not([data-disabled])')
        ?.focus(),
    );
    return () => cancelAnimationFrame(frame);
  }, [openedByKeyboard]);
  return content;
}
