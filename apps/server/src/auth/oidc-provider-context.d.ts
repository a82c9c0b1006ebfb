// oidc-provider's request context, an internal module of the package (it has no exports map):
// embedded-provider.ts disables it between the provider's requests.
declare module 'oidc-provider/lib/helpers/als.js' {
  import type { AsyncLocalStorage } from 'node:async_hooks';

  const requestContext: AsyncLocalStorage<unknown>;
  export default requestContext;
}
