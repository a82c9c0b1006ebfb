/**
 * Unsigned JWTs for tests: the app only reads the payload (the server verifies signatures).
 */

export function encodeBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A token whose payload segment is the given claims; header and signature are placeholders. */
export function makeTestToken(claims: object): string {
  const header = encodeBase64Url(JSON.stringify({ alg: 'none', typ: 'JWT' }));
  return `${header}.${encodeBase64Url(JSON.stringify(claims))}.signature`;
}
