/**
 * A sign-in that cannot finish. `status` and `userMessage` make the HTML page the browser sees;
 * `logMessage` is for operators and never holds codes, tokens or cookies.
 */
export class SignInError extends Error {
  constructor(
    public readonly status: 400 | 403 | 502,
    public readonly userMessage: string,
    public readonly logMessage: string,
    options?: { cause?: unknown },
  ) {
    super(logMessage, options);
    this.name = 'SignInError';
  }
}
