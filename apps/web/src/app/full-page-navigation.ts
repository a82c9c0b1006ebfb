/**
 * Navigation that leaves the single-page app: the server's sign-in (`/authenticated`) and
 * sign-out (`/signout`) routes. A module of its own so that tests can observe it.
 */
export function navigateFullPage(url: string): void {
  window.location.assign(url);
}
