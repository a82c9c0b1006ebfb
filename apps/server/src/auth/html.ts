import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignInError } from './sign-in-error.ts';

/**
 * The few server-rendered pages of sign-in: the embedded provider's account page and the error
 * pages. Plain HTML with one <style> block: nothing loads from the network and no script runs
 * (the Content-Security-Policy allows scripts from our origin only).
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, sans-serif; color: #111827; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #fff; }
  main { width: min(26rem, calc(100% - 2rem)); padding: 2rem; border: 1px solid #8884;
         border-radius: 0.75rem; }
  h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
  p { line-height: 1.5; }
  ul { list-style: none; padding: 0; margin: 1rem 0; display: grid; gap: 0.5rem; }
  form { margin: 0; }
  button, input { font: inherit; box-sizing: border-box; width: 100%; padding: 0.5rem 0.75rem;
                  border-radius: 0.5rem; border: 1px solid #8888; }
  button { cursor: pointer; background: #1f2937; color: #fff; }
  button.secondary { background: transparent; color: inherit; }
  label { display: block; margin: 1rem 0 0.25rem; font-weight: 600; }
  .hint { font-size: 0.875rem; color: #4b5563; margin: 0.125rem 0 0; }
  .error { color: #b91c1c; }
  a { color: inherit; }
`;

/** A whole page; `body` must already be escaped HTML. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** A sign-in failure or refusal: what happened, and the way back to the login screen. */
export function signInProblemPage(title: string, message: string): string {
  return htmlPage(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p><a href="/login">Back to sign-in</a></p>`,
  );
}

/** Why a sign-in route failed: the page the browser gets, and the reason for the log and audit. */
export interface SignInProblem {
  status: number;
  title: string;
  message: string;
  /** Words safe to log and audit: never a code, token or cookie. */
  reason: string;
}

/**
 * Route error handler of the browser-facing sign-in routes: every failure ends on a page with a
 * way back to /login, never a stack trace or a JSON body.
 */
export function signInErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  return sendSignInProblem(request, reply, describeSignInProblem(error, request));
}

export function sendSignInProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  { status, title, message }: SignInProblem,
) {
  request.server.metrics?.countSignIn(status >= 500 ? 'failed' : 'refused');
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(signInProblemPage(title, message));
}

/** What a failure of a sign-in route means for the browser, logged with its reason. */
export function describeSignInProblem(error: unknown, request: FastifyRequest): SignInProblem {
  if (error instanceof SignInError) {
    request.log.warn({ reason: error.logMessage }, 'Sign-in failed');
    return {
      status: error.status,
      title: 'Sign-in failed',
      message: error.userMessage,
      reason: error.logMessage,
    };
  }
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  if (statusCode === 429) {
    request.log.warn({ reason: 'rate limit' }, 'Sign-in refused');
    return {
      status: 429,
      title: 'Too many sign-in attempts',
      message: 'Too many sign-in attempts from your network. Please wait a minute and try again.',
      reason: 'rate limit',
    };
  }
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    const reason = error instanceof Error ? error.name : 'client error';
    request.log.warn({ reason }, 'Sign-in request refused');
    return {
      status: statusCode,
      title: 'Sign-in failed',
      message: 'This sign-in request is not valid or has expired. Please sign in again.',
      reason: `Invalid sign-in request (${reason})`,
    };
  }
  request.log.error({ err: error }, 'Sign-in failed unexpectedly');
  return {
    status: 500,
    title: 'Sign-in failed',
    message: 'Something went wrong while signing you in. Please try again.',
    reason: 'Unexpected error (see the server log)',
  };
}
