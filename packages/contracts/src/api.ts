/**
 * The console's HTTP calls, each written once as a method and a path: the server registers its
 * route from it and the web app calls it through it, so the two cannot drift apart. Paths use
 * Fastify's `:name` placeholders; `apiPath` fills them in for a call.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiRoute<Path extends string = string> {
  readonly method: HttpMethod;
  readonly path: Path;
}

export function apiRoute<const Path extends string>(
  method: HttpMethod,
  path: Path,
): ApiRoute<Path> {
  return { method, path };
}

/** The placeholder names of a path: '/api/EntityUser/:userId/keys/:keyName' → 'userId' | 'keyName'. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

type ParamsArgument<Path extends string> = [PathParams<Path>] extends [never]
  ? []
  : [params: Record<PathParams<Path>, string | number>];

/** The path of one call: every `:name` replaced by its value, URL-encoded. */
export function apiPath<Path extends string>(
  route: ApiRoute<Path>,
  ...[params]: ParamsArgument<Path>
): string {
  const values = (params ?? {}) as Record<string, string | number>;
  return route.path.replace(/:([A-Za-z]+)/g, (_placeholder, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for :${name} of ${route.path}`);
    return encodeURIComponent(String(value));
  });
}

/** The session status and the app configuration the browser reads before any screen. */
export const sessionApi = {
  status: apiRoute('GET', '/auth/session'),
  appConfig: apiRoute('GET', '/app-config'),
} as const;
