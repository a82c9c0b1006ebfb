/**
 * The login screen (spec part 1, section 2): a welcome message, one 'Continue with Microsoft'
 * button that starts the server's sign-in by full-page navigation to /authenticated, and links
 * to the terms of service and the privacy policy. The spec does not give those links' targets;
 * they point at our own pages /docs/terms and /docs/privacy (placeholders until the operator
 * provides the texts).
 *
 * Kept light on purpose: nothing before this screen loads React Router (app.tsx; the legal links
 * are plain links, a full-page load), i18next (texts: boot-texts.ts), tailwind-merge,
 * class-variance-authority, Radix or an icon library (budget: at most 80 kB gzip of JS before
 * this screen is usable).
 */
import { AuthLayout } from './auth-layout';
import { bootText as t } from './boot-texts';
import { navigateFullPage } from './full-page-navigation';
import { paths } from './paths';

// The classes of shadcn's Button, variant "outline", size "lg" (components/ui/button-variants.ts),
// spelled out so that this chunk does not need class-variance-authority.
const continueButtonClass =
  "inline-flex h-10 w-full shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md border bg-background px-6 text-sm font-medium shadow-xs transition-all outline-none hover:bg-accent hover:text-accent-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 has-[>svg]:px-4 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4";

const linkClass =
  'text-foreground rounded-sm underline underline-offset-4 outline-none hover:text-primary focus-visible:ring-ring/50 focus-visible:ring-[3px]';

export default function LoginPage() {
  return (
    <AuthLayout
      footer={
        <p className="text-muted-foreground text-center text-xs text-balance">
          {t('login.legalPrefix')}{' '}
          <a href={paths.terms()} className={linkClass}>
            {t('login.terms')}
          </a>{' '}
          {t('login.legalAnd')}{' '}
          <a href={paths.privacy()} className={linkClass}>
            {t('login.privacy')}
          </a>
          .
        </p>
      }
    >
      <div className="flex flex-col gap-2 text-center">
        <h1 className="text-xl font-semibold">{t('login.title')}</h1>
        <p className="text-muted-foreground text-sm">{t('login.subtitle')}</p>
      </div>
      <button
        type="button"
        className={continueButtonClass}
        onClick={() => navigateFullPage(paths.authenticated())}
      >
        <MicrosoftLogo />
        {t('login.continueWithMicrosoft')}
      </button>
    </AuthLayout>
  );
}

function MicrosoftLogo() {
  return (
    <svg viewBox="0 0 21 21" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="9" height="9" fill="#f25022" />
      <rect x="11" y="1" width="9" height="9" fill="#7fba00" />
      <rect x="1" y="11" width="9" height="9" fill="#00a4ef" />
      <rect x="11" y="11" width="9" height="9" fill="#ffb900" />
    </svg>
  );
}
