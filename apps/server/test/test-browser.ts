/**
 * A minimal browser for HTTP tests of full-page flows (sign-in): fetch with a cookie jar that
 * honours Path, Max-Age and Expires, and manual redirects so each hop can be checked.
 */
interface StoredCookie {
  name: string;
  value: string;
  path: string;
  expiresAt: number | undefined;
}

export interface Hop {
  url: string;
  status: number;
}

export class TestBrowser {
  private readonly jar = new Map<string, StoredCookie>();

  /** `userAgent` is sent with every request, to find what the server recorded of this browser. */
  constructor(
    private readonly baseUrl: string,
    private readonly userAgent?: string,
  ) {}

  /** One request, no redirect following. Relative URLs are resolved against the base URL. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url, this.baseUrl);
    const headers = new Headers(init.headers);
    if (this.userAgent && !headers.has('user-agent')) headers.set('user-agent', this.userAgent);
    const cookieHeader = this.cookieHeaderFor(target.pathname);
    if (cookieHeader) headers.set('cookie', cookieHeader);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    this.store(response.headers.getSetCookie());
    return response;
  }

  /** Submits a form like a browser: urlencoded POST. */
  postForm(url: string, fields: Record<string, string>): Promise<Response> {
    return this.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /**
   * Follows redirects from `response` (GET after 301/302/303) until a page answers or the next
   * location's path is `stopAtPath`. Returns the last response and every hop taken.
   */
  async follow(
    response: Response,
    from: string,
    stopAtPath?: string,
  ): Promise<{ response: Response; url: string; hops: Hop[] }> {
    const hops: Hop[] = [];
    let current = response;
    let url = new URL(from, this.baseUrl).href;
    for (let count = 0; count < 20; count++) {
      const location = current.headers.get('location');
      if (current.status < 300 || current.status >= 400 || !location) break;
      const next = new URL(location, url);
      hops.push({ url: next.href, status: current.status });
      url = next.href;
      if (stopAtPath && next.pathname === stopAtPath) break;
      await current.arrayBuffer();
      current = await this.fetch(next.href);
    }
    return { response: current, url, hops };
  }

  cookie(name: string): string | undefined {
    const now = Date.now();
    for (const cookie of this.jar.values()) {
      if (cookie.name === name && (cookie.expiresAt === undefined || cookie.expiresAt > now)) {
        return cookie.value;
      }
    }
    return undefined;
  }

  setCookie(name: string, value: string, path = '/'): void {
    this.jar.set(`${name};${path}`, { name, value, path, expiresAt: undefined });
  }

  private cookieHeaderFor(pathname: string): string {
    const now = Date.now();
    return [...this.jar.values()]
      .filter((cookie) => cookie.expiresAt === undefined || cookie.expiresAt > now)
      .filter((cookie) => pathMatches(cookie.path, pathname))
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }

  private store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      let path = '/';
      let expiresAt: number | undefined;
      for (const attribute of attributes) {
        const [key = '', attributeValue = ''] = attribute.split('=');
        const lowerKey = key.toLowerCase();
        if (lowerKey === 'path') path = attributeValue;
        if (lowerKey === 'max-age') expiresAt = Date.now() + Number(attributeValue) * 1000;
        if (lowerKey === 'expires' && expiresAt === undefined) {
          expiresAt = Date.parse(attribute.slice(attribute.indexOf('=') + 1));
        }
      }
      this.jar.set(`${name};${path}`, { name, value, path, expiresAt });
    }
  }
}

/**
 * The address the embedded identity provider's sign-in page posts an account to (its form's
 * action, resolved against the page's URL).
 */
export function embeddedLoginAction(html: string, pageUrl: string): string {
  const action = /<form method="post" action="([^"]+\/login)">/.exec(html)?.[1];
  if (!action) throw new Error('The sign-in page has no login form');
  return new URL(action.replaceAll('&amp;', '&'), pageUrl).href;
}

/**
 * Signs `email` in as a person would with the embedded identity provider: /authenticated, the
 * provider's sign-in page, the account posted, the redirects followed to the app (or to the page
 * refusing the account). Answers the last response.
 */
export async function signInWithEmbeddedProvider(
  browser: TestBrowser,
  email: string,
): Promise<Response> {
  const { response: page, url } = await browser.follow(
    await browser.fetch('/authenticated'),
    '/authenticated',
  );
  const action = embeddedLoginAction(await page.text(), url);
  const { response } = await browser.follow(
    await browser.postForm(action, { email }),
    action,
    '/dashboard',
  );
  return response;
}

function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}
