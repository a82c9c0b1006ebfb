/**
 * Known failures a handler can throw; the error handler in app.ts turns them into the status and
 * JSON body `{ message, ...details }`. Handlers never build error responses themselves.
 */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new HttpError(400, message, details);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do this') =>
  new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new HttpError(409, message, details);
