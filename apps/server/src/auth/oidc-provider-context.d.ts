// Internal modules of oidc-provider (the package has no exports map). Its request context:
// embedded-provider.ts disables it between the provider's requests.
declare module 'oidc-provider/lib/helpers/als.js' {
  import type { AsyncLocalStorage } from 'node:async_hooks';

  const requestContext: AsyncLocalStorage<unknown>;
  export default requestContext;
}

// The provider's helper that adds an inline script's sha-256 to the response's
// Content-Security-Policy, as its own form_post pages do: the embedded sign-out page uses it.
declare module 'oidc-provider/lib/helpers/script_src_sha.js' {
  import type { KoaContextWithOIDC } from 'oidc-provider';

  export default function pushInlineSha(ctx: KoaContextWithOIDC, script: string): string;
}
