import { demoAccounts } from './demo-accounts.ts';
import { escapeHtml, htmlPage } from './html.ts';

export interface SignInPageOptions {
  /** Where the page's forms post, e.g. /oidc/interaction/{uid}. */
  interactionPath: string;
  /** The address typed last, shown again with `error`. */
  email?: string;
  error?: string;
}

/**
 * The embedded identity provider's sign-in page: one button per demo account (its accessible
 * name is exactly the email) and a field for any other address, so a tenant user created in the
 * console can sign in too. No password: this provider exists for development only.
 */
export function signInPage({ interactionPath, email, error }: SignInPageOptions): string {
  const action = escapeHtml(`${interactionPath}/login`);
  const accounts = demoAccounts
    .map(
      (account, index) => `<li>
<form method="post" action="${action}">
<input type="hidden" name="email" value="${escapeHtml(account.email)}">
<button type="submit" aria-describedby="account-${index}">${escapeHtml(account.email)}</button>
</form>
<p class="hint" id="account-${index}">${escapeHtml(account.name)} · ${escapeHtml(account.description)}</p>
</li>`,
    )
    .join('\n');
  const errorText = error
    ? `<p class="error" id="email-error" role="alert">${escapeHtml(error)}</p>`
    : '';
  return htmlPage(
    'Sign in',
    `<h1>Sign in</h1>
<p>Development identity provider. Choose a demo account, or sign in with any other email address.</p>
<ul>
${accounts}
</ul>
<form method="post" action="${action}">
<label for="email">Email address</label>
<input id="email" name="email" type="email" required autocomplete="email"${
      email ? ` value="${escapeHtml(email)}"` : ''
    }${error ? ' aria-invalid="true" aria-describedby="email-error"' : ''}>
${errorText}
<p><button type="submit">Sign in</button></p>
</form>
<form method="post" action="${escapeHtml(`${interactionPath}/abort`)}">
<button type="submit" class="secondary">Cancel</button>
</form>`,
  );
}

/**
 * The embedded provider's sign-out step (RP-initiated logout): the provider's own form, which
 * carries its anti-forgery token, sent at once by `script` (allowed by its hash in the
 * Content-Security-Policy). Without script, a button sends it.
 */
export function signOutPage(providerForm: string, script: string): string {
  const endEverySession = '<input type="hidden" name="logout" value="yes"/></form>';
  return htmlPage(
    'Signing out',
    `<h1>Signing out</h1>
<p>Signing you out of the development identity provider…</p>
${providerForm.replace('</form>', endEverySession)}
<noscript><p><button type="submit" form="op.logoutForm">Sign out</button></p></noscript>
<script>${script}</script>`,
  );
}
