import { bootText } from './boot-texts';

/** Shown while a screen's chunk loads: announced to screen readers, nothing visible. */
export function RouteLoading() {
  return (
    <p role="status" className="sr-only">
      {bootText('common.loading')}
    </p>
  );
}
